// Command signals runs the Signals service and its operator commands.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"signals/internal/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Run(ctx, os.Args[1:], cli.Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv, Program: cli.Program(os.Args[0])})
	stop()
	os.Exit(code)
}
