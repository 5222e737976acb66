step 1: fetching
[32m[####################][39m 100%
[30m[42mdone[39m                  
[36m[49m================================================================================
====================>
[39mstep 2: fetching
[32m[####################][39m 100%
[30m[42mdone[39m                  
[36m[49m================================================================================
====================>
[39mstep 3: fetching
[32m[####################][39m 100%
[30m[42mdone[39m                  
[36m[49m================================================================================
====================>
[39mstep 4: fetching
[32m[####################][39m 100%
[30m[42mdone[39m                  
[36m[49m================================================================================
====================>
[39mstep 5: fetching
[32m[####################][39m 100%
[30m[42mdone[39m                  
[36m[49m================================================================================
====================>
[39mstep 6: fetching
[32m[####################][39m 100%
[30m[42mdone[39m                  
[36m[49m================================================================================
====================>
[39mlog line 1
log line 2
log line 3
log line 4
log line 5
log line 6
log line 7
log line 8
log line 9
log line 10
log line 11
log line 12
log line 13
log line 14
log line 15
log line 16
log line 17
log line 18
log line 19
log line 20
log line 21
log line 22
log line 23
log line 24
log line 25
log line 26
log line 27
log line 28
log line 29
log line 30
log line 31
log line 32
log line 33
log line 34
log line 35
log line 36
log line 37
log line 38
log line 39
log line 40
log line 41
log line 42
log line 43
log line 44
log line 45
log line 46
log line 47
log line 48
log line 49
log line 50
log line 51
log line 52
log line 53
log line 54
log line 55
log line 56
log line 57
log line 58
log line 59
log line 60
finished

