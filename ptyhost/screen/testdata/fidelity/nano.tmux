[7m  GNU nano 7.2             /tmp/corral-fidelity-sample.txt                      
[0m[39m[49mplain ascii line
你好[38;5;208m    [39mwith[38;5;208m    [39mtab
café été — combining
emoji 😀 flag 🇩🇪 family 👨‍👩‍👧 end
a wide 宽字符在这里 line that is long enough to wrap at the eighty column margi[7m>
[0m[39m[49m       [38;5;208m [39mindented with a tab














                                [7m[ Read 6 lines ]
^G[0m[39m[49m Help      [7m^O[0m[39m[49m Write Out [7m^W[0m[39m[49m Where Is  [7m^K[0m[39m[49m Cut       [7m^T[0m[39m[49m Execute   [7m^C[0m[39m[49m Location
[7m^X[0m[39m[49m Exit      [7m^R[0m[39m[49m Read File [7m^\[0m[39m[49m Replace   [7m^U[0m[39m[49m Paste     [7m^J[0m[39m[49m Justify   [7m^/[0m[39m[49m Go To Line
