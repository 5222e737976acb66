[1mbold[0m[39m[49m [2mdim[0m[39m[49m [3mital[0m[39m[49m [4munder[0m[39m[49m [5mblink[0m[39m[49m [7mrev[0m[39m[49m [8mhid[0m[39m[49m [9mstrike
[0m[31m[49mred[1mboldred[0m[39m[49m [1m[34mboldblue[0m[39m[49m [91mbright[39m [42mbg[49m [102mbrbg
[38;5;208m[49m256fg[48;5;22m256bg[39m[49m [38;2;10;200;30mtrue[48;2;90;0;120mtruebg[39m[49m [38;2;200;100;50mcolon[39m [4:3mcurly
[0m[39m[49mwide 你好 end|é|😀|🇩🇪|👨‍👩‍👧|x
0000000000000000000000000000000000000000000000000000000000000000000000000000000
你
lqqk box x
abXYcdef                                                                        
ab  f                                                                           
zzzzzz

line3
line4
line5
line6
line7

inserted



last[7mrevEL


