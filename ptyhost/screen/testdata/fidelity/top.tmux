top - 00:00:00 up  0:00,  0 user,  load average: 0.00, 0.00, 0.00
Tasks:  00 total,   0 running,  00 sleeping,   0 stopped,   0 zombie
%Cpu(s): 00.0 us, 00.0 sy,  0.0 ni,  0.0 id,  0.0 wa,  0.0 hi,  0.0 si,  0.0 st 
MiB Mem :  00000.0 total,  00000.0 free,    000.0 used,    000.0 buff/cache     
MiB Swap:      0.0 total,      0.0 free,      0.0 used.  00000.0 avail Mem 

  PID USER      PR  NI    VIRT    RES    SHR S  %CPU  %MEM     TIME+ COMMAND
00000 root      00   0 0000000  00000  00000 R 000.0   0.0   0:00.00 compile
00000 root      00   0    0000   0000   0000 R   0.0   0.0   0:00.00 top
    0 root      00   0   00000  00000   0000 S   0.0   0.0   0:00.00 process_a+
    0 root      00   0       0      0      0 S   0.0   0.0   0:00.00 kthreadd
    0 root      00   0       0      0      0 S   0.0   0.0   0:00.00 pool_work+
    0 root       0 -00       0      0      0 I   0.0   0.0   0:00.00 kworker/R+
    0 root       0 -00       0      0      0 I   0.0   0.0   0:00.00 kworker/R+
    0 root       0 -00       0      0      0 I   0.0   0.0   0:00.00 kworker/R+
    0 root       0 -00       0      0      0 I   0.0   0.0   0:00.00 kworker/R+
    0 root       0 -00       0      0      0 I   0.0   0.0   0:00.00 kworker/R+
   00 root       0 -00       0      0      0 I   0.0   0.0   0:00.00 kworker/0+
   00 root      00   0       0      0      0 I   0.0   0.0   0:00.00 kworker/0+
   00 root       0 -00       0      0      0 I   0.0   0.0   0:00.00 kworker/R+




