package metrics

import (
	"context"

	"signals/internal/mail"
)

// Mail counts the messages of one kind ("sign_in", "digest") that s sends
// and fails to send.
func (m *Metrics) Mail(kind string, s mail.Sender) mail.Sender {
	sent, failed := m.mails.WithLabelValues(kind, "sent"), m.mails.WithLabelValues(kind, "failed")
	return mailCounter{s, func(err error) {
		if err != nil {
			failed.Inc()
		} else {
			sent.Inc()
		}
	}}
}

type mailCounter struct {
	mail.Sender
	count func(error)
}

func (c mailCounter) Send(ctx context.Context, msg mail.Message) error {
	err := c.Sender.Send(ctx, msg)
	c.count(err)
	return err
}
