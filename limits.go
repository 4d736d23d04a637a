package wasmexec

import "time"

// Limits bound one run. Zero fields mean "the server default"; see
// Limits.Resolve.
type Limits struct {
	// Fuel is the wasm instruction budget (wasmtime fuel units).
	Fuel uint64 `json:"fuel,omitempty"`
	// MemoryBytes caps the guest's linear memory.
	MemoryBytes int64 `json:"memoryBytes,omitempty"`
	// OutputBytes caps what a run may write to each of stdout and stderr;
	// going past it ends the run as failed/output_limit.
	OutputBytes int64 `json:"outputBytes,omitempty"`
}

// FuelPerSecond is roughly how much fuel a guest burns per second of CPU;
// it turns "seconds of CPU" into fuel. Fuel counts wasm instructions, so
// the rate depends on the program: `make bench` measures it on 16 small
// JS and Python programs (median 6.0-7.3e9 per CPU-second of the server,
// 4.7-14e9 by program, on 2 shared cores; see docs/RATIONALE.md).
const FuelPerSecond = 6_500_000_000

// DefaultLimits are the server defaults: 20 CPU-seconds of fuel at the
// measured median rate, two thirds of the default timeout, so fuel still
// ends a runaway run (the same way on an idle and a busy machine) unless
// the run gets less than two thirds of a core; the first load of the
// largest npm package the corpus has (mathjs, 80-100 G) fits with room.
// docs/RATIONALE.md, "The default fuel".
func DefaultLimits() Limits {
	return Limits{
		Fuel:        20 * FuelPerSecond,
		MemoryBytes: 256 << 20,
		OutputBytes: 10 << 20,
	}
}

// MaxMemoryBytes is the largest memory limit a guest can have: a wasm32
// guest addresses at most 4 GiB. Policy.Validate refuses maxima above it.
const MaxMemoryBytes = 4 << 30

// Policy is the server's limit configuration: defaults applied to requests
// that don't say, and maxima no request may exceed.
type Policy struct {
	Default        Limits
	Max            Limits
	DefaultTimeout time.Duration
	MaxTimeout     time.Duration
	MaxStdinBytes  int64
	// Network checks runs' network allow-lists and secrets against the
	// operator's ceiling; nil: the network is off for everyone.
	Network NetworkCeiling
}

// DefaultPolicy returns defaults equal to the maxima.
func DefaultPolicy() Policy {
	return Policy{
		Default:        DefaultLimits(),
		Max:            DefaultLimits(),
		DefaultTimeout: 30 * time.Second,
		MaxTimeout:     30 * time.Second,
		MaxStdinBytes:  10 << 20,
	}
}

// Validate checks the policy itself (server start-up).
func (p Policy) Validate() error {
	switch {
	case p.Max.Fuel == 0 || p.Max.MemoryBytes <= 0 || p.Max.OutputBytes <= 0:
		return Errorf(EInvalid, "maximum limits must be positive")
	case p.Max.MemoryBytes > MaxMemoryBytes:
		return Errorf(EInvalid, "the maximum memoryBytes %d is above %d (4 GiB, all a 32-bit guest can address)", p.Max.MemoryBytes, int64(MaxMemoryBytes))
	case p.Default.Fuel > p.Max.Fuel || p.Default.MemoryBytes > p.Max.MemoryBytes || p.Default.OutputBytes > p.Max.OutputBytes:
		return Errorf(EInvalid, "default limits must not exceed the maxima")
	case p.DefaultTimeout <= 0 || p.MaxTimeout < p.DefaultTimeout:
		return Errorf(EInvalid, "timeouts must be positive and the default must not exceed the maximum")
	}
	return nil
}

// Resolve fills a request's zero limits from the defaults and rejects any
// above the maxima or below what the image needs (EInvalid).
func (p Policy) Resolve(l Limits, timeout time.Duration, minMemory int64) (Limits, time.Duration, error) {
	if l.Fuel == 0 {
		l.Fuel = p.Default.Fuel
	}
	if l.MemoryBytes == 0 {
		l.MemoryBytes = p.Default.MemoryBytes
	}
	if l.OutputBytes == 0 {
		l.OutputBytes = p.Default.OutputBytes
	}
	if timeout == 0 {
		timeout = p.DefaultTimeout
	}
	switch {
	case l.Fuel > p.Max.Fuel:
		return l, 0, Errorf(EInvalid, "limits.fuel %d is above the server maximum %d", l.Fuel, p.Max.Fuel)
	case l.MemoryBytes < 0 || l.MemoryBytes > p.Max.MemoryBytes:
		return l, 0, Errorf(EInvalid, "limits.memoryBytes %d is outside 1..%d", l.MemoryBytes, p.Max.MemoryBytes)
	case l.MemoryBytes < minMemory:
		return l, 0, Errorf(EInvalid, "limits.memoryBytes %d is below the %d bytes this guest needs to start", l.MemoryBytes, minMemory)
	case l.OutputBytes < 0 || l.OutputBytes > p.Max.OutputBytes:
		return l, 0, Errorf(EInvalid, "limits.outputBytes %d is outside 1..%d", l.OutputBytes, p.Max.OutputBytes)
	case timeout < 0 || timeout > p.MaxTimeout:
		return l, 0, Errorf(EInvalid, "timeoutMs %d is outside 1..%d", timeout.Milliseconds(), p.MaxTimeout.Milliseconds())
	}
	return l, timeout, nil
}
