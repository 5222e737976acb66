



[44m             [1m[36m [37m[47mlqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq[0m[30m[47mk
[39m[44m             [1m[36m [37m[47mx[0m[30m[47m Pick 你好[39m                                      [30mx[1m[40m  
[0m[39m[44m             [1m[36m [37m[47mx[0m[30m[47m lqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq[1m[37mk[0m[30m[47m x[1m[40m  
[0m[39m[44m             [1m[36m [37m[47mx[0m[30m[47m x            [1m[37m[44m[*][0m[30m[47m [1m[31m[44m1[0m[30m[47m  [1m[37m[44m你好 with CJK[0m[30m[47m            [1m[37mx[0m[30m[47m x[1m[40m  
[0m[39m[44m             [1m[36m [37m[47mx[0m[30m[47m x            [ ] [31m2[30m  plain item[39m               [1m[37mx[0m[30m[47m x[1m[40m  
[0m[39m[44m             [1m[36m [37m[47mx[0m[30m[47m x            [*] [31m3[30m  emoji 😀 item            [1m[37mx[0m[30m[47m x[1m[40m  
[0m[39m[44m             [1m[36m [37m[47mx[0m[30m[47m x[39m                                            [1m[37mx[0m[30m[47m x[1m[40m  
[0m[39m[44m             [1m[36m [37m[47mx[0m[30m[47m x[39m                                            [1m[37mx[0m[30m[47m x[1m[40m  
[0m[39m[44m             [1m[36m [37m[47mx[0m[30m[47m x[39m                                            [1m[37mx[0m[30m[47m x[1m[40m  
[0m[39m[44m             [1m[36m [37m[47mx[0m[30m[47m x[39m                                            [1m[37mx[0m[30m[47m x[1m[40m  
[0m[39m[44m             [1m[36m [37m[47mx[0m[30m[47m x[39m                                            [1m[37mx[0m[30m[47m x[1m[40m  
[0m[39m[44m             [1m[36m [37m[47mx[0m[30m[47m m[1m[37mqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqj[0m[30m[47m x[1m[40m  
[0m[39m[44m             [1m[36m [37m[47mtqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq[0m[30m[47mu[1m[40m  
[0m[39m[44m             [1m[36m [37m[47mx[0m[39m[47m           [1m[37m[44m<[33m  OK  [37m>[0m[39m[47m      [30m<[1mCancel[0m[30m[47m>[39m               [30mx[1m[40m  
[0m[39m[44m             [1m[36m [37m[47mm[0m[30m[47mqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqj[1m[40m  
[0m[39m[44m               [1m[36m 




