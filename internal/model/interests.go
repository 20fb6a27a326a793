package model

import (
	"fmt"
	"slices"
	"time"
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

// Check reports the first reason the interests cannot be kept.
func (in Interests) Check() error {
	if !slices.Contains(Frequencies, in.Frequency) {
		return fmt.Errorf("choose how often: daily or weekly")
	}
	if len(in.Tags) == 0 && len(in.Countries) == 0 {
		return fmt.Errorf("choose at least one kind of signal or one country")
	}
	for _, t := range in.Tags {
		if !slices.Contains(Tags, t) {
			return fmt.Errorf("%q is not a kind of signal", t)
		}
	}
	for _, c := range in.Countries {
		if !ValidCountry(c) {
			return fmt.Errorf("%q is not a country key", c)
		}
	}
	return nil
}

// Filter is the signal filter of the interests.
func (in Interests) Filter() Filter {
	return Filter{Tags: in.Tags, Countries: in.Countries}
}
