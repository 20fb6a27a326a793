package builtin

import "strings"

// concepts are groups of words that mean the same thing in this domain, where
// the word vectors see them only as loosely related ("funding" and "raised"
// have a cosine of about 0.55, "hiring" and "vacancies" 0.36). Soft matching
// treats two words of one group as the same word. The groups follow the kinds
// of signal the service collects (jobs, funding, launches, feedback, events,
// physical AI) and a few recurring subjects. Words are folded vocabulary
// words; French words are reached through the alias table.
//
// A group that names a kind of signal has its tag: a signal classified under
// that tag matches the group's words fully, whatever words it uses ("small
// thing that makes a coding assistant good or bad for me" is feedback).
var concepts = []concept{
	// funding
	{tag: "funding", words: `funding funded fund funds fundraise fundraising raise raises raised raising round rounds
	 investment investments invest invests invested investor investors capital financing
	 financed valuation backing backed backer backers series seed`},
	// jobs
	{tag: "job", words: `hiring hire hires hired recruiting recruit recruits recruitment recruiter job jobs vacancy
	 vacancies openings positions careers employment intern interns internship internships`},
	// launches
	{tag: "product_launch", words: `launch launches launched launching release releases released releasing unveil unveils
	 unveiled unveiling introducing introduces introduced debut debuts debuted ships shipped
	 available`},
	// feedback
	{tag: "product_feedback", words: `feedback review reviews complaints complaint impressions lessons opinion opinions`},
	// events
	{tag: "events", words: `conference conferences meeting meetings summit forum seminar seminars expo workshop
	 workshops symposium event events`},
	// competitions
	{tag: "events", words: `competition competitions contest contests`},
	// people who write software
	{words: `programmer programmers developer developers coder coders`},
	// trucks
	{words: `truck trucks lorry lorries`},
	// robots
	{words: `robot robots robotic robotics`},
	// drones
	{words: `drone drones uav uavs`},
	// vehicles that drive themselves
	{words: `driverless self-driving robotaxi robotaxis`},
	// speech
	{words: `speech voice voices transcription transcribe transcribes transcribing transcribed dictation`},
	// chips
	{words: `chip chips semiconductor semiconductors accelerator accelerators processor processors`},
	// health care
	{words: `health healthcare medical clinical hospital hospitals clinic clinics medicine doctors
	 physicians clinicians patient patients diagnosis diagnostic diagnostics radiology nurses`},
	// regulation
	{words: `regulation regulations regulatory legislation law laws compliance rules`},
	// education
	{words: `school schools classroom classrooms teacher teachers students pupils education tutor tutoring`},
	// surgery
	{words: `surgery surgical surgeon surgeons`},
}

// concept is one group of words, with the tag of the signals it names, if
// any.
type concept struct {
	tag   string
	words string
}

// conceptGroups maps each concept word's vocabulary index to 1 + its group.
func conceptGroups(v *wordVectors, concepts []concept) []uint8 {
	g := make([]uint8, len(v.weight))
	for i, group := range concepts {
		for w := range strings.FieldsSeq(group.words) {
			if k := v.lookup([]byte(w)); k >= 0 {
				g[k] = uint8(i + 1)
			}
		}
	}
	return g
}

// root strips common English inflections from a folded word after its plural
// stem, so that "launches", "launched" and "launching" share a root. Short
// words are left alone.
func root(w []byte) []byte {
	w = stem(w)
	n := len(w)
	switch {
	case n >= 6 && string(w[n-3:]) == "ing":
		w = w[:n-3]
	case n >= 5 && string(w[n-2:]) == "ed" && w[n-3] != 'e':
		w = w[:n-2]
	default:
		if n >= 4 && w[n-1] == 'e' && w[n-2] != 'e' {
			w = w[:n-1]
		}
		return w
	}
	n = len(w)
	if n >= 4 && w[n-1] == w[n-2] && !isVowel(w[n-1]) && w[n-1] != 'l' && w[n-1] != 's' && w[n-1] != 'z' {
		w = w[:n-1] // running -> run
	} else if n >= 4 && w[n-1] == 'e' {
		w = w[:n-1]
	}
	return w
}

func isVowel(c byte) bool {
	return c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u' || c == 'y'
}

// wordRoots maps each vocabulary index to the index of the first word with
// the same root (see root), so that inflections of one word match fully.
func wordRoots(v *wordVectors) []int32 {
	r := make([]int32, len(v.weight))
	for i := range r {
		r[i] = int32(i)
	}
	first := make(map[string]int32, len(v.index))
	var buf []byte
	for w, i := range v.index {
		buf = root(append(buf[:0], w...))
		if j, ok := first[string(buf)]; !ok || i < j {
			first[string(buf)] = i
		}
	}
	for w, i := range v.index {
		buf = root(append(buf[:0], w...))
		r[i] = first[string(buf)]
	}
	return r
}
