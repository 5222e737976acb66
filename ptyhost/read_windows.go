package ptyhost

import "os"

// readChunk reads once from f into a buffer of readBufs and hands what it read to
// use; it returns the read's error.
func readChunk(f *os.File, use func([]byte)) error {
	bp := readBufs.Get().(*[]byte)
	defer readBufs.Put(bp)
	n, err := f.Read(*bp)
	if n > 0 {
		use((*bp)[:n])
	}
	return err
}
