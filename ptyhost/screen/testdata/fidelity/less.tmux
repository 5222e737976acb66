plain ascii line
你好    with    tab
café été — combining
emoji 😀 flag 🇩🇪 family 👨‍👩‍👧 end
a wide 宽字符在这里 line that is long enough to wrap at the eighty column margin
 你好世界
        indented with a tab
[7m/tmp/corral-fidelity-sample.txt (END)
















