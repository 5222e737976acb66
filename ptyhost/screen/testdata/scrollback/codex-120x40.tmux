Disconnected from this task. Any running work continues.
To reconnect, run:
  [36mcodex resume 01a2174d-9eab-7c91-ab3d-7a6350b34118
[39mStop the current turn: run [36mcodex agents[39m, select this task, and press x.
Token usage so far: total=300 input=200 output=100



































