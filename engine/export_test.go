package engine

// Instantiate exposes instantiate to the tests: a guest created and not
// started, as the pool keeps them for snapshotted images.
var Instantiate = (*Image).instantiate
