package model

import (
	"fmt"
	"slices"
	"time"

	"signals/internal/failure"
)

// Digest frequencies.
const (
	Daily  = "daily"
	Weekly = "weekly"
)

// Frequencies are the digest frequencies a person can choose.
var Frequencies = []string{Daily, Weekly}

// Interests are what a person chose to receive by email: a digest of new
// public signals with any of Tags and in any of Countries (an empty list
// does not narrow), daily or weekly. An account has none until it
// chooses.
type Interests struct {
	Tags      []string
	Countries []string
	Frequency string
	// Since is where the next digest starts: signals observed strictly
	// later are new to this person.
	Since time.Time
}

// Check reports the first reason the interests cannot be kept, as a
// failure naming the form field at fault; its detail speaks to the person
// who chose them.
func (in Interests) Check() error {
	if !slices.Contains(Frequencies, in.Frequency) {
		return refusedInterest(failure.Invalid("frequency", "must be daily or weekly", Frequencies),
			"Choose how often: daily or weekly.")
	}
	if len(in.Tags) == 0 && len(in.Countries) == 0 {
		return refusedInterest(failure.Missing("tags"), "Choose at least one kind of signal or one country.")
	}
	for _, t := range in.Tags {
		if !slices.Contains(Tags, t) {
			return refusedInterest(failure.Invalid("tags", "must be kinds of signal", Tags),
				fmt.Sprintf("%q is not a kind of signal.", t))
		}
	}
	for _, c := range in.Countries {
		if !ValidCountry(c) {
			return refusedInterest(failure.Malformed("countries", "must be country keys"),
				fmt.Sprintf("%q is not a country key.", c))
		}
	}
	return nil
}

func refusedInterest(e *failure.Error, detail string) *failure.Error {
	e.Detail = detail
	return e
}

// Filter is the signal filter of the interests.
func (in Interests) Filter() Filter {
	return Filter{Tags: in.Tags, Countries: in.Countries}
}
