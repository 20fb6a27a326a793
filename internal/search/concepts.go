package search

import "strings"

// concepts are groups of words that mean the same thing in this domain, where
// the word vectors see them only as loosely related ("funding" and "raised"
// have a cosine of about 0.55, "hiring" and "vacancies" 0.36). Soft matching
// treats two words of one group as the same word. The groups follow the kinds
// of signal the service collects (jobs, funding, launches, feedback, events,
// physical AI) and a few recurring subjects. Words are folded vocabulary
// words; French words are reached through the alias table.
var concepts = []string{
	// funding
	`funding funded fund funds fundraise fundraising raise raises raised raising round rounds
	 investment investments invest invests invested investor investors capital financing
	 financed valuation backing backed series seed`,
	// jobs
	`hiring hire hires hired recruiting recruit recruits recruitment recruiter job jobs vacancy
	 vacancies openings positions careers employment intern interns internship internships`,
	// launches
	`launch launches launched launching release releases released releasing unveil unveils
	 unveiled introducing ships shipped available`,
	// feedback
	`feedback review reviews complaints complaint impressions lessons opinion`,
	// events
	`conference conferences meeting meetings summit forum seminar seminars expo workshop
	 workshops symposium event events`,
	// robots
	`robot robots robotic robotics`,
	// drones
	`drone drones uav uavs`,
	// vehicles that drive themselves
	`driverless self-driving robotaxi robotaxis`,
	// speech
	`speech voice voices transcription`,
	// chips
	`chip chips semiconductor semiconductors accelerator accelerators processor processors`,
	// health care
	`health healthcare medical clinical hospital hospitals clinic clinics medicine doctors
	 physicians clinicians`,
	// regulation
	`regulation regulations regulatory legislation law laws compliance rules`,
	// education
	`school schools classroom classrooms teacher teachers students pupils education tutor tutoring`,
	// surgery
	`surgery surgical surgeon surgeons`,
}

// conceptGroups maps each concept word's vocabulary index to 1 + its group.
func conceptGroups(v *wordVectors) []uint8 {
	g := make([]uint8, len(v.weight))
	for i, group := range concepts {
		for w := range strings.FieldsSeq(group) {
			if k := v.lookup([]byte(w)); k >= 0 {
				g[k] = uint8(i + 1)
			}
		}
	}
	return g
}
