[30m[46m  Left     File     Command     Options     Right
[37m[44m┌<─[30m[47m /tmp [37m[44m─────────────────────────.[^]>┐┌<─ ...ptyhost/testdata/fidelity ─.[^]>┐
│[93m.n     Name      [37m│[93m Size  [37m│[93mModify time [37m││[93m.n     Name      [37m│[93m Size  [37m│[93mModify time [37m│
│[30m[46m/..              │UP--DIR│Nov 24 06:18[37m[44m││[97m/..              [37m│[97mUP--DIR[37m│[97mNov 24 08:35[37m│
│[97m/TestEsca~3370087[37m│[97m   4096[37m│[97mNov 24 08:37[37m││ dialog.raw      │   3173│Nov 24 08:37│
│[97m/bash_jobs.0     [37m│[97m   4096[37m│[97mNov 24 08:37[37m││ dialog.tmux     │   2410│Nov 24 08:37│
│[97m/bash_too~a26c024[37m│[97m   4096[37m│[97mNov 24 07:02[37m││ git-log.raw     │   3220│Nov 24 08:37│
│[97m/bash_too~3e0b90f[37m│[97m   4096[37m│[97mNov 24 07:02[37m││ git-log.tmux    │   1553│Nov 24 08:37│
│[97m/bash_too~b687cba[37m│[97m   4096[37m│[97mNov 24 08:37[37m││ htop.raw        │   6378│Nov 24 08:37│
│[97m/bash_too~f6a4e07[37m│[97m   4096[37m│[97mNov 24 08:32[37m││ htop.tmux       │   3268│Nov 24 08:37│
│[97m/bash_too~c4fa4dc[37m│[97m   4096[37m│[97mNov 24 08:37[37m││ less.raw        │    354│Nov 24 08:37│
│[97m/bash_too~c842c07[37m│[97m   4096[37m│[97mNov 24 07:02[37m││ less.tmux       │    310│Nov 24 08:37│
│[97m/cc1             [37m│[97m   4096[37m│[97mNov 24 08:22[37m││ ls.raw          │   1652│Nov 24 08:37│
│[97m/ep              [37m│[97m   4096[37m│[97mNov 24 07:57[37m││ ls.tmux         │   1585│Nov 24 08:37│
│[97m/go-build~2968286[37m│[97m   4096[37m│[97mNov 24 07:56[37m││ mc.raw          │    111│Nov 24 08:37│
│[97m/go-build~4063014[37m│[97m   4096[37m│[97mNov 24 07:55[37m││ mc.tmux         │   3183│Nov 24 08:37│
│[97m/go-build~6076383[37m│[97m   4096[37m│[97mNov 24 08:37[37m││ nano.raw        │    978│Nov 24 08:37│
│[97m/go-build~7157351[37m│[97m   4096[37m│[97mNov 24 08:37[37m││ nano.tmux       │    838│Nov 24 08:37│
├──────────────────────────────────────┤├──────────────────────────────────────┤
│UP--DIR                               ││UP--DIR                               │
└────────────────── 238G / 252G (94%) ─┘└────────────────── 238G / 252G (94%) ─┘
[39m[49mHint: Tab changes your current panel.
root@vm:/tmp#
[97m[40m 1[30m[46mHelp  [97m[40m 2[30m[46mMenu  [97m[40m 3[30m[46mView  [97m[40m 4[30m[46mEdit  [97m[40m 5[30m[46mCopy  [97m[40m 6[30m[46mRenMov[97m[40m 7[30m[46mMkdir [97m[40m 8[30m[46mDelete[97m[40m 9[30m[46mPullDn[97m[40m10[30m[46mQuit
