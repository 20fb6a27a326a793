package model

import "time"

// Editorial actions, as the desk log names them.
const (
	ActionSetStatus = "set-status"
	ActionSet       = "set"
	ActionDelete    = "delete"
	ActionRestore   = "restore"
)

// Operator is the desk log's editor for decisions made from the command
// line, by whoever runs the service.
const Operator = "operator"

// Decision is one entry of the desk log: who decided what of which signal,
// when and why. Before and After hold the fields it changed (a takedown's
// Before holds the whole signal's editorial fields).
//
// Its JSON form is one line of the log's export (JSON Lines).
type Decision struct {
	Seq      int64          `json:"seq"`
	At       time.Time      `json:"at"`
	Editor   string         `json:"editor"`
	SignalID string         `json:"signal_id"`
	Action   string         `json:"action"`
	Before   map[string]any `json:"before"`
	After    map[string]any `json:"after"`
	Reason   string         `json:"reason"`
}

// Change is what an editor changes of one signal; nil fields stay.
type Change struct {
	Status     *string
	MarketOnly *bool
	Tag        *string
	// Country is a country key, or "" for none.
	Country  *string
	Language *string
}

// Empty reports whether c changes nothing.
func (c Change) Empty() bool {
	return c.Status == nil && c.MarketOnly == nil && c.Tag == nil && c.Country == nil && c.Language == nil
}

// DeskQuery selects signals for the desk, whatever their status: those
// with Status (any when ""), Tag, Source, Language when set, and Words in
// their text, author or headline; pending ones oldest first, others newest
// first. Text is cut to TextChars code points (0: the list snippet's
// length).
type DeskQuery struct {
	Status, Tag, Source, Language, Words string
	Limit, TextChars                     int
}

// LogQuery selects desk log entries: of one signal, of one editor, newest
// first, at most Limit (0: all).
type LogQuery struct {
	SignalID, Editor string
	Limit            int
}
