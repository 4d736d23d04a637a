package images

// ReadBuildStatusAt reads a status at a given time, so that a test's
// expectations don't depend on a second ticking over.
var ReadBuildStatusAt = readBuildStatusAt
