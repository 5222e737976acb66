package testkit

// ToyRules are the rule file of the toy agent the tests run: a shell script in a PTY
// (run as toy-agent, or named with --agent toy) that draws the screens an agent
// shows. It works while its title starts with a spinner (⠂), waits while the last
// rows ask 'Allow toy to run …' with '1. Yes' under it, and is idle at a last line
// that starts with '>'. A test that needs more (a mode, a session table, the keys
// that answer) appends to them or replaces a line.
const ToyRules = `agent = "toy"
title = "Toy agent"
commands = ["toy-agent"]

[[rule]]
name = "question"
state = "waiting"
priority = 100
region = "bottom 6"
all = ['Allow toy to run', '1\. Yes']

[[rule]]
name = "spinner"
state = "working"
priority = 50
region = "title"
any = ['^⠂']

[[rule]]
name = "prompt"
state = "idle"
region = "bottom 2"
any = ['^>']
`
