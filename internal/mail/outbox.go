package mail

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	gomail "github.com/wneessen/go-mail"
)

// outbox writes each message to its own file <unix-nanoseconds>.eml. A file
// appears complete or not at all (written aside, then linked into place),
// and a name is never reused, so a reader may pick up files while the
// service writes.
type outbox struct {
	dir string
	mu  sync.Mutex
}

func newOutbox(dir string) (*outbox, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("mail: outbox %s: %w", dir, err)
	}
	// Messages hold sign-in links: the folder is its owner's alone.
	if err := os.MkdirAll(abs, 0o700); err != nil {
		return nil, fmt.Errorf("mail: outbox: %w", err)
	}
	return &outbox{dir: abs}, nil
}

func (o *outbox) deliver(_ context.Context, m *gomail.Msg) (string, error) {
	var buf bytes.Buffer
	if _, err := m.WriteTo(&buf); err != nil {
		return "", err
	}
	tmp, err := os.CreateTemp(o.dir, ".writing-*")
	if err != nil {
		return "", err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(buf.Bytes()); err != nil {
		tmp.Close()
		return "", err
	}
	if err := errors.Join(tmp.Sync(), tmp.Close()); err != nil {
		return "", err
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	for ns := time.Now().UnixNano(); ; ns++ {
		name := filepath.Join(o.dir, strconv.FormatInt(ns, 10)+".eml")
		err := os.Link(tmp.Name(), name)
		if errors.Is(err, fs.ErrExist) {
			continue // another process wrote in the same nanosecond
		}
		if err != nil {
			return "", err
		}
		return name, nil
	}
}
