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

	"github.com/wasmexec/wasmexec/client"
	"github.com/wasmexec/wasmexec/exec"
)

// evalCmd runs `wasmexec eval|exec --lang L [--server URL] CODE`: against a
// running server when --server (or WASMEXEC_SERVER) is set, otherwise
// in-process with the same engine the server uses.
func evalCmd(cmd string, args []string) error {
	fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
	lang := fs.String("lang", "javascript", "javascript, typescript or python")
	serverURL := fs.String("server", os.Getenv("WASMEXEC_SERVER"), "server URL (empty: run in-process)")
	inputs := fs.String("inputs", "", "JSON object exposed as `inputs`")
	stdin := fs.Bool("stdin", false, "pass this command's stdin to the code")
	asJSON := fs.Bool("json", false, "print the whole result as JSON")
	var o options
	o.register(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return fmt.Errorf("usage: wasmexec %s --lang LANG 'code' (use - to read code from stdin)", cmd)
	}
	code := fs.Arg(0)
	if code == "-" {
		b, err := io.ReadAll(os.Stdin)
		if err != nil {
			return err
		}
		code = string(b)
	}
	req := exec.Request{Language: exec.Language(*lang), Code: code}
	req.Kind = exec.KindEvaluate
	if cmd == "exec" {
		req.Kind = exec.KindExecute
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
	if timeoutSet(fs) {
		req.TimeoutMs = o.timeoutMs
	}
	var res *exec.Result
	var err error
	if *serverURL != "" {
		res, err = evalRemote(*serverURL, &req)
	} else {
		if err := applyEnv(fs); err != nil {
			return err
		}
		o.poolSize, o.storeEnabled, o.tscheckWorkers, o.tsWorkers = 0, false, 0, 0
		res, err = evalLocal(o, &req)
	}
	if err != nil {
		return err
	}
	return printResult(res, *asJSON)
}

func evalLocal(o options, req *exec.Request) (*exec.Result, error) {
	a, err := newApp(o, newLogger("warn"))
	if err != nil {
		return nil, err
	}
	defer a.close()
	if err := a.load(context.Background()); err != nil {
		return nil, err
	}
	return a.runner.Run(context.Background(), req, exec.RunOptions{})
}

// evalRemote runs req on the server at base (the client package),
// with the key of WASMEXEC_API_KEY when set.
func evalRemote(base string, req *exec.Request) (*exec.Result, error) {
	c := client.New(base, client.WithAPIKey(os.Getenv("WASMEXEC_API_KEY")))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	run := c.Evaluate
	if req.Kind == exec.KindExecute {
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

func printResult(res *exec.Result, asJSON bool) error {
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
	if res.Outcome != exec.Succeeded {
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

func timeoutSet(fs *flag.FlagSet) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == "timeout-ms" })
	return set
}
