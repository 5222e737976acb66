in/FileCheck
lrwxrwxrwx  1 root root          1 Aug 18  2021 [1m[36mX11[0m[39m[49m -> .
-rwxr-xr-x  1 root root      68496 Sep 20  2022 [1m[32m[
[0m[39m[49m-rwxr-xr-x  1 root root       3472 May 26  2022 [1m[32mactivate-global-python-argcomple
te
[0m[39m[49m-rwxr-xr-x  1 root root      14439 May 17  2024 [1m[32madd-apt-repository
[0m[39m[49m-rwxr-xr-x  1 root root      31040 Nov 21  2024 [1m[32maddpart
[0m[39m[49mlrwxrwxrwx  1 root root         26 Jan 14  2023 [1m[36maddr2line[0m[39m[49m -> x86_64-linux-gnu-ad
dr2line
lrwxrwxrwx  1 root root         37 Jun 20  2025 [1m[36manthoscli[0m[39m[49m -> ../lib/google-cloud
-sdk/bin/anthoscli
-rwxr-xr-x  1 root root      14720 Feb 29  2020 [1m[32mappres
[0m[39m[49m-rwxr-xr-x  1 root root     131192 May 28  2023 [1m[32mappstreamcli
[0m[39m[49mlrwxrwxrwx  1 root root          6 Mar 12  2023 [1m[36mapropos[0m[39m[49m -> whatis
-rwxr-xr-x  1 root root      18752 May 25  2023 [1m[32mapt
[0m[39m[49mlrwxrwxrwx  1 root root         18 May 17  2024 [1m[36mapt-add-repository[0m[39m[49m -> add-apt-re
pository
-rwxr-xr-x  1 root root      88456 May 25  2023 [1m[32mapt-cache
[0m[39m[49m-rwxr-xr-x  1 root root      22920 May 25  2023 [1m[32mapt-cdrom
[0m[39m[49m-rwxr-xr-x  1 root root      26944 May 25  2023 [1m[32mapt-config
[0m[39m[49m-rwxr-xr-x  1 root root      51592 May 25  2023 [1m[32mapt-get
[0m[39m[49m-rwxr-xr-x  1 root root      27972 May 25  2023 [1m[32mapt-key
[0m[39m[49m-rwxr-xr-x  1 root root      59784 May 25  2023 [1m[32mapt-mark

