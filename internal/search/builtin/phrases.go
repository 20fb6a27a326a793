package builtin

import (
	"strings"
)

// phrases maps descriptive paraphrases of the AI and tech domain to the terms
// the domain uses for them, where the word vectors cannot bridge the two:
// "shaped like people" is made of common words whose vectors say nothing of
// robots, and "humanoid" is the word a signal about such robots uses.
//
// Principle: an entry is a phrase a domain expert would list as a plain
// description of a domain term, written from the domain (the kinds of signal
// the service collects: jobs, funding, launches, feedback, events, physical
// AI, and recurring subjects), not from any query or signal. Each phrase
// is at least two words (single words belong in the alias table or the
// concept groups) and specific enough that it cannot describe anything else
// in this domain. Phrases are folded words with hyphens as spaces; they match
// whole consecutive query words (stop words included), and each match adds
// its terms to the query. Only queries are rewritten: document vectors do not
// depend on this table.
var phrases = map[string]string{
	// humanoid robots
	"shaped like people":     "humanoid robots",
	"shaped like humans":     "humanoid robots",
	"human shaped":           "humanoid robots",
	"human like robots":      "humanoid robots",
	"human like machines":    "humanoid robots",
	"humanlike robots":       "humanoid robots",
	"robots that look like":  "humanoid robots",
	"bipedal robots":         "humanoid robots",
	"two legged robots":      "humanoid robots",
	"walking robots":         "humanoid robots",
	"drive themselves":       "driverless autonomous",
	"drives itself":          "driverless autonomous",
	"driving themselves":     "driverless autonomous",
	"nobody at the wheel":    "driverless autonomous",
	"no one at the wheel":    "driverless autonomous",
	"without a driver":       "driverless autonomous",
	"without drivers":        "driverless autonomous",
	"without a human driver": "driverless autonomous",
	"flying cameras":         "drones",
	"flying robots":          "drones",
	"unmanned aircraft":      "drones",
	"unmanned aerial":        "drones",
	// software and models
	"write software":         "coding assistant",
	"writes software":        "coding assistant",
	"writing software":       "coding assistant",
	"write code":             "coding assistant",
	"writes code":            "coding assistant",
	"writing code":           "coding assistant",
	"generate code":          "coding assistant",
	"code generation":        "coding assistant",
	"code completion":        "coding assistant",
	"pair programmer":        "coding assistant",
	"programming assistant":  "coding assistant",
	"text generator":         "language model",
	"text generators":        "language models",
	"text generation model":  "language model",
	"chat model":             "language model",
	"download the weights":   "open-weight model",
	"downloadable model":     "open-weight model",
	"downloadable models":    "open-weight models",
	"download and run":       "open-weight model",
	"run it locally":         "open-weight model",
	"run locally":            "open-weight model",
	"open sourced model":     "open-weight model",
	"open source model":      "open-weight model",
	"freely available model": "open-weight model",
	"weights are public":     "open-weight model",
	"voice to text":          "speech transcription",
	"voice recognition":      "speech transcription",
	"voice synthesis":        "speech synthesis voices",
	"synthetic voices":       "speech synthesis voices",
	"graphics cards":         "gpus",
	"graphics processors":    "gpus",
	"computer chips":         "chips",
	"automated systems":      "ai systems",
	"automated decision":     "ai systems",
	"algorithmic systems":    "ai systems",
	"intelligent systems":    "ai systems",
	"thinking machines":      "ai",
	"machine intelligence":   "ai",
	"european legislation":   "eu regulation act",
	"european law":           "eu regulation act",
	"european rules":         "eu regulation act",
	"eu legislation":         "eu regulation act",
	"eu law":                 "eu regulation act",
	"eu rules":               "eu regulation act",
	"brussels rules":         "eu regulation act",
	"training data leaked":   "benchmark contamination",
	"test set leakage":       "benchmark contamination",
	"retrieval augmented":    "rag",
	"prompt hacking":         "prompt injection",
	"makers of":              "companies startups",
	// funding
	"raise money":     "funding",
	"raises money":    "funding",
	"raised money":    "funding",
	"raising money":   "funding",
	"cash injection":  "funding",
	"venture capital": "funding",
	"vc money":        "funding",
	"vc backed":       "funding",
	"war chest":       "funding",
	"closed a round":  "funding",
	"new capital":     "funding",
	// jobs
	"open roles":       "hiring jobs",
	"job openings":     "hiring jobs",
	"now hiring":       "hiring jobs",
	"join our team":    "hiring jobs",
	"work for":         "hiring jobs",
	"looking for work": "job seeking",
	// feedback
	"what people think":     "feedback opinions",
	"what users think":      "feedback opinions",
	"what developers think": "feedback opinions",
	"think of":              "feedback opinions",
	"experience with":       "feedback review",
	"experiences with":      "feedback review",
	"hands on with":         "feedback review",
	// events
	"coding competition":   "hackathon",
	"coding competitions":  "hackathons",
	"programming contest":  "hackathon",
	"programming contests": "hackathons",
	"hack day":             "hackathon",
	"hack days":            "hackathons",
	"hack weekend":         "hackathon",
	"build weekend":        "hackathon",
	"get together":         "meetup",
	"get togethers":        "meetups",
	"online talks":         "webinars",
	"online seminar":       "webinar",
	"online seminars":      "webinars",
}

// phraseIndex holds the phrases as word sequences, grouped by first word.
type phraseIndex map[string][]phraseEntry

type phraseEntry struct {
	words []string
	terms string
}

func newPhraseIndex(phrases map[string]string) phraseIndex {
	ix := phraseIndex{}
	for p, t := range phrases {
		ws := strings.Fields(p)
		ix[ws[0]] = append(ix[ws[0]], phraseEntry{ws, t})
	}
	return ix
}

// expand returns the domain terms of the phrases found in query, separated
// by spaces, or "".
func (ix phraseIndex) expand(query string) string {
	var ws []string
	words(query, nil, func(w []byte) {
		for p := range strings.SplitSeq(string(w), "-") {
			if p != "" {
				ws = append(ws, p)
			}
		}
	})
	var out []string
	for i, w := range ws {
		for _, e := range ix[w] {
			if i+len(e.words) <= len(ws) && equalWords(ws[i:i+len(e.words)], e.words) {
				out = append(out, e.terms)
			}
		}
	}
	return strings.Join(out, " ")
}

func equalWords(a, b []string) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
