package mail

import (
	"context"
	"fmt"
	"io"
	"time"

	gomaillog "github.com/wneessen/go-mail/log"
)

// CheckServer connects to the SMTP server as a delivery would (greeting,
// EHLO, TLS, authentication) and leaves without sending anything; with
// the outbox it does nothing. serve runs it at start, so that a mail
// server that does not answer is found by the operator rather than by the
// first person who signs in.
func (s *Mailer) CheckServer(ctx context.Context) error {
	if s.smtp == nil {
		return nil
	}
	if err := s.smtp.check(ctx); err != nil {
		return fmt.Errorf("mail: %s: %w", s.Where, err)
	}
	return nil
}

// SendTest sends one test message to to, writing to w how it went: with
// SMTP, the conversation, each command ("C: MAIL FROM:<…>") and each reply
// of the server ("S: 250 2.1.0 Ok") as they came, authentication data
// left out; with the outbox, the file that holds the message.
func (s *Mailer) SendTest(ctx context.Context, to string, w io.Writer) error {
	msg, err := s.build(Message{To: to, Subject: "Signals test message",
		Text: "This message was sent by `signals mail test` at " + s.now().UTC().Format(time.RFC3339) + " to check\n" +
			"that mail leaves this service. Sign-in links reach people the same way.\n"})
	if err != nil {
		return err
	}
	if s.smtp == nil {
		where, err := s.deliver(ctx, msg)
		if err != nil {
			return fmt.Errorf("mail: %w", err)
		}
		fmt.Fprintf(w, "no SMTP server is set (SIGNALS_SMTP_URL): the message was written to %s\n", where)
		return nil
	}
	fmt.Fprintf(w, "connecting to %s\n", s.Where)
	if _, err := s.smtp.deliverLogged(ctx, msg, transcript{w}); err != nil {
		return fmt.Errorf("mail: %s: %w", s.Where, err)
	}
	fmt.Fprintf(w, "the server accepted the message for %s\n", to)
	return nil
}

// transcript writes go-mail's log of an SMTP conversation as "C: " and
// "S: " lines.
type transcript struct{ w io.Writer }

func (t transcript) line(l gomaillog.Log) {
	who := "S: "
	if l.Direction == gomaillog.DirClientToServer {
		who = "C: "
	}
	fmt.Fprintf(t.w, who+l.Format+"\n", l.Messages...)
}

func (t transcript) Debugf(l gomaillog.Log) { t.line(l) }
func (t transcript) Infof(l gomaillog.Log)  { t.line(l) }
func (t transcript) Warnf(l gomaillog.Log)  { t.line(l) }
func (t transcript) Errorf(l gomaillog.Log) { t.line(l) }
