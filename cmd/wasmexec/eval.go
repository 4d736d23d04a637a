package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/client"
)

// evalServerFlags are the serve flags that matter to an in-process eval;
// they are also read from their WASMEXEC_* variables.
var evalServerFlags = []string{"images-dir", "cache-dir", "scratch-dir", "log-level"}

// evalCmd runs `wasmexec eval|exec [flags] CODE [flags]`: against a running
// server when --server (or WASMEXEC_SERVER) is set, otherwise in-process
// with the same engine the server uses. Flags may come before or after the
// code.
func evalCmd(cmd string, args []string) error {
	fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
	lang := fs.String("lang", "javascript", "javascript, typescript or python")
	serverURL := fs.String("server", os.Getenv("WASMEXEC_SERVER"), "URL of a running server, e.g. http://127.0.0.1:8080 (default $WASMEXEC_SERVER; empty: run in-process)")
	inputs := fs.String("inputs", "", "a JSON object the code sees as the global inputs")
	stdin := fs.Bool("stdin", false, "pass this command's stdin to the code")
	asJSON := fs.Bool("json", false, "print the whole result as JSON")
	var req wasmexec.Request
	fs.Int64Var(&req.TimeoutMs, "timeout-ms", 0, "wall-clock deadline of the run (default: the server's, 30000)")
	fs.Uint64Var(&req.Limits.Fuel, "fuel", 0, "fuel limit of the run (default: the server's)")
	fs.Int64Var(&req.Limits.MemoryBytes, "memory-bytes", 0, "memory limit of the run (default: the server's, 256 MiB)")
	fs.Int64Var(&req.Limits.OutputBytes, "output-bytes", 0, "output limit per stream (default: the server's)")
	// The server flags that matter in-process share the serve options.
	var o options
	all := flag.NewFlagSet(cmd, flag.ContinueOnError)
	o.register(all)
	o.logLevel, all.Lookup("log-level").DefValue = "warn", "warn"
	for _, name := range evalServerFlags {
		f := all.Lookup(name)
		fs.Var(f.Value, name, f.Usage+" [in-process only; also "+envName(name)+"]")
	}
	usage := func(w io.Writer) {
		what := "evaluate CODE and print its value and output"
		if cmd == "exec" {
			what = "execute CODE as a program and print its output"
		}
		fmt.Fprintf(w, "usage: wasmexec %s [flags] CODE: %s (CODE - reads it from stdin)\n\n", cmd, what)
		fmt.Fprintln(w, "Without --server the code runs in this process with the guest images of --images-dir;")
		fmt.Fprintln(w, "--timeout-ms, --fuel, --memory-bytes and --output-bytes are the run's limits either way.")
		fmt.Fprintln(w)
		fs.SetOutput(w)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
	}
	code, err := parseInterleaved(fs, args, usage)
	if err != nil {
		return err
	}
	if code == "-" {
		b, err := io.ReadAll(os.Stdin)
		if err != nil {
			return err
		}
		code = string(b)
	}
	req.Language, req.Code = wasmexec.Language(*lang), code
	req.Kind = wasmexec.KindEvaluate
	if cmd == "exec" {
		req.Kind = wasmexec.KindExecute
	}
	if *inputs != "" {
		req.Inputs = json.RawMessage(*inputs)
	}
	if *stdin {
		b, err := io.ReadAll(os.Stdin)
		if err != nil {
			return err
		}
		req.Stdin = string(b)
	}
	if req.TimeoutMs < 0 {
		return fmt.Errorf("--timeout-ms=%d: accepted 1 or more", req.TimeoutMs)
	}
	if req.Limits.MemoryBytes < 0 || req.Limits.OutputBytes < 0 {
		return fmt.Errorf("--memory-bytes and --output-bytes: accepted 1 or more")
	}
	var res *wasmexec.Result
	if *serverURL != "" {
		res, err = evalRemote(*serverURL, &req)
	} else {
		given := map[string]bool{}
		fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
		if o.fromEnv, err = applyEnv(all, given); err != nil {
			return err
		}
		res, err = evalLocal(o, &req)
	}
	if err != nil {
		return err
	}
	return printResult(res, *asJSON)
}

// parseInterleaved parses flags before and after the one positional
// argument (the code); "--" ends the flags.
func parseInterleaved(fs *flag.FlagSet, args []string, usage func(io.Writer)) (string, error) {
	var pos []string
	for {
		if err := parseFlags(fs, args, usage); err != nil {
			return "", err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			break
		}
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" {
			pos = append(pos, rest...)
			break
		}
		pos, args = append(pos, rest[0]), rest[1:]
	}
	if len(pos) != 1 {
		what := "no code given"
		if len(pos) > 1 {
			what = fmt.Sprintf("%d arguments given, want one (quote the code)", len(pos))
		}
		return "", fmt.Errorf("%s: usage: wasmexec %s [flags] CODE (CODE - reads it from stdin; -h lists the flags)", what, fs.Name())
	}
	return pos[0], nil
}

// evalLocal runs req in this process: a server without store, pools or
// TypeScript workers, in a temporary data directory. Limits the request
// asks for above the server maxima raise them: on the command line the
// user is the operator.
func evalLocal(o options, req *wasmexec.Request) (*wasmexec.Result, error) {
	o.poolSize, o.storeEnabled, o.tscheckWorkers, o.tsWorkers, o.inProcess = 0, false, 0, 0, true
	o.maxTimeoutMs = max(o.maxTimeoutMs, req.TimeoutMs)
	o.maxFuel = max(o.maxFuel, req.Limits.Fuel)
	o.maxMemoryBytes = max(o.maxMemoryBytes, req.Limits.MemoryBytes)
	o.maxOutputBytes = max(o.maxOutputBytes, req.Limits.OutputBytes)
	data, err := os.MkdirTemp("", "wasmexec-eval-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(data)
	o.dataDir = data
	a, err := newApp(o, newLogger(o.logLevel))
	if err != nil {
		return nil, err
	}
	defer a.close()
	if err := a.load(context.Background()); err != nil {
		return nil, err
	}
	return a.runner.Run(context.Background(), req, wasmexec.RunOptions{})
}

// evalRemote runs req on the server at base (the client package),
// with the key of WASMEXEC_API_KEY when set.
func evalRemote(base string, req *wasmexec.Request) (*wasmexec.Result, error) {
	c := client.New(base, client.WithAPIKey(os.Getenv("WASMEXEC_API_KEY")))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	run := c.Evaluate
	if req.Kind == wasmexec.KindExecute {
		run = c.Execute
	}
	res, err := run(ctx, req)
	if err != nil {
		var e *client.Error
		if errors.As(err, &e) {
			return nil, fmt.Errorf("server: %s (%s)", e.Message, e.Code)
		}
		return nil, err
	}
	return res, nil
}

func printResult(res *wasmexec.Result, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	}
	if res.Stdout != nil {
		os.Stdout.WriteString(*res.Stdout)
	}
	if res.Stderr != nil {
		os.Stderr.WriteString(*res.Stderr)
	}
	if res.Value != nil {
		fmt.Println(string(res.Value))
	}
	if res.Outcome != wasmexec.Succeeded {
		msg := string(res.Outcome)
		if res.Error != nil {
			msg += ": " + res.Error.Code + ": " + res.Error.Message
			if res.Error.Stack != "" {
				msg += "\n" + res.Error.Stack
			}
		}
		fmt.Fprintln(os.Stderr, msg)
		if res.ExitCode != 0 {
			return exitError(res.ExitCode)
		}
		return exitError(1)
	}
	return nil
}
