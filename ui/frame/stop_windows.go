package frame

// notifyStop has no stop signal to wait on in Windows.
func notifyStop(done <-chan struct{}, _, _ func()) { <-done }
