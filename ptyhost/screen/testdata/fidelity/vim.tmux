[38;5;130m  1 [39mplain ascii line
[38;5;130m  2 [39m你好    with    tab
[38;5;130m  3 [39mcafé été — combining
[38;5;130m  4 [39memoji 😀 flag 🇩 🇪  family 👨[34m<200d>[39m👩[34m<200d>[39m👧 end
[38;5;130m  5 [39ma wide 宽字符在这里 line that is long enough to wrap at the eighty column ma
[38;5;130m    [39mrgin 你好世界
[38;5;130m  6 [39m        indented with a tab
[94m~                                                                               
~                                                                               
~                                                                               
~                                                                               
~                                                                               
~                                                                               
~                                                                               
~                                                                               
~                                                                               
~                                                                               
~                                                                               
~                                                                               
~                                                                               
~                                                                               
~                                                                               
~                                                                               
[39m"/tmp/corral-fidelity-sample.txt" 6L, 238B
