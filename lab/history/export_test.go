package history

// Options for tests.
func DetectOptions(minSegment int) cpOptions { return cpOptions{MinSegment: minSegment} }
