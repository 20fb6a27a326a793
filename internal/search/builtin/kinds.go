package builtin

// kinds maps the words and phrases with which a query asks for a kind of
// signal to its tag: "who is hiring" asks for jobs, "mixed feelings" for
// feedback. Keys are folded words as the tokeniser gives them, with French
// elisions removed and hyphens as spaces; a phrase matches consecutive
// query words. The words are those of everyday requests, not of the
// subjects signals are about: "hackathon" is a subject (events of one
// kind), "conference" asks for events.
var kinds = map[string]string{
	// jobs
	"hiring": "job", "hire": "job", "hires": "job", "recruiting": "job", "recruit": "job",
	"recruits": "job", "recruitment": "job", "recruiter": "job", "recruiters": "job",
	"job": "job", "jobs": "job", "vacancy": "job", "vacancies": "job", "openings": "job",
	"open role": "job", "open roles": "job", "open position": "job", "open positions": "job",
	"job offer": "job", "job offers": "job", "careers": "job", "internship": "job", "internships": "job",
	"emploi": "job", "emplois": "job", "offre emploi": "job", "offres emploi": "job", "recrute": "job",
	"recrutent": "job", "recrutement": "job", "recrutements": "job", "embauche": "job", "embauchent": "job",
	"postes ouverts": "job", "alternance": "job",
	// funding
	"funding": "funding", "funded": "funding", "fundraise": "funding", "fundraising": "funding",
	"raise": "funding", "raises": "funding", "raised": "funding", "raising": "funding",
	"round": "funding", "rounds": "funding", "investor": "funding", "investors": "funding",
	"investment": "funding", "investments": "funding", "venture capital": "funding",
	"seed money": "funding", "seed round": "funding", "financing": "funding", "backed by": "funding",
	"raise money": "funding", "raises money": "funding", "raised money": "funding", "raising money": "funding",
	"raise capital": "funding", "raises capital": "funding", "raised capital": "funding",
	"raising capital": "funding", "levee de fonds": "funding", "levees de fonds": "funding",
	"leve des fonds": "funding", "levent des fonds": "funding", "lever des fonds": "funding",
	"series a": "funding", "series b": "funding", "series c": "funding",
	"levee": "funding", "levees": "funding", "leve": "funding", "levent": "funding",
	"financement": "funding", "financements": "funding", "investisseurs": "funding",
	"investissement": "funding", "investissements": "funding", "tour de table": "funding",
	// launches
	"launch": "product_launch", "launches": "product_launch", "launched": "product_launch",
	"launching": "product_launch", "release": "product_launch", "releases": "product_launch",
	"released": "product_launch", "releasing": "product_launch", "unveil": "product_launch",
	"unveils": "product_launch", "unveiled": "product_launch", "now available": "product_launch",
	"debut": "product_launch", "debuts": "product_launch", "new product": "product_launch",
	"new products": "product_launch", "product launch": "product_launch",
	"product launches": "product_launch", "lancement": "product_launch", "lancements": "product_launch",
	"lance": "product_launch", "lancent": "product_launch", "sortie": "product_launch",
	// feedback
	"complaints": "product_feedback", "complaint": "product_feedback", "complain": "product_feedback",
	"criticism": "product_feedback", "criticisms": "product_feedback", "critique": "product_feedback",
	"critiques": "product_feedback", "reviews": "product_feedback",
	"mixed feelings": "product_feedback", "feedback": "product_feedback", "frustrations": "product_feedback",
	"pros and cons": "product_feedback", "what users think": "product_feedback",
	"what people think": "product_feedback", "avis": "product_feedback", "retours": "product_feedback",
	"retour experience": "product_feedback", "plaintes": "product_feedback",
	// physical AI
	"humanoid": "physical_ai", "humanoids": "physical_ai", "humanoide": "physical_ai",
	"humanoides": "physical_ai", "robot at home": "physical_ai", "home robot": "physical_ai",
	"home robots": "physical_ai", "household robot": "physical_ai", "household robots": "physical_ai",
	"warehouse robot": "physical_ai", "warehouse robots": "physical_ai", "physical ai": "physical_ai",
	"robots entrepot": "physical_ai",
	// events
	"conference": "events", "conferences": "events", "meetup": "events", "meetups": "events",
	"meet up": "events", "meet ups": "events", "summit": "events", "summits": "events",
	"webinar": "events", "webinars": "events", "event": "events", "events": "events",
	"evenement": "events", "evenements": "events", "rencontre": "events", "rencontres": "events",
	"salon": "events", "salons": "events", "colloque": "events",
}

// physicalKind is the tag of signals about robots and machines. Its words
// name a subject as well as a kind, so a query that asks for another kind
// too ("humanoid robot funding") asks for that one, about the subject.
const physicalKind = "physical_ai"

// generic are words that every signal is about (the service collects AI
// signals) or that frame a request: they are no subject of their own, so
// "LLM jobs in Canada" asks for jobs in Canada.
var generic = map[string]bool{
	"ai": true, "ia": true, "artificial intelligence": true, "intelligence artificielle": true,
	"ml": true, "machine learning": true, "deep learning": true, "llm": true, "llms": true,
	"genai": true, "generative ai": true, "tech": true, "technology": true, "technologies": true,
	"startup": true, "startups": true, "start up": true, "start ups": true, "company": true,
	"companies": true, "firms": true, "entreprise": true, "entreprises": true, "teams": true,
	"tool": true, "tools": true, "outil": true, "outils": true,
	"who": true, "where": true, "happening": true, "going": true, "lately": true, "today": true,
	"this week": true, "this month": true, "people": true, "qui": true, "ou": true,
}

// languageWords follow a country's adjective when it names a language, not
// a place: "African languages", "en français" (at the end of a query, or
// after "in", "en", "for" or "pour") names a language.
var languageWords = map[string]bool{
	"language": true, "languages": true, "langue": true, "langues": true, "tongue": true,
	"tongues": true, "speaking": true, "speakers": true, "speech": true, "dialect": true,
	"dialects": true, "accent": true, "accents": true, "translation": true, "traduction": true,
}

// topicWords follow a place when the place names a body of rules rather
// than where signals come from: "EU AI Act", "European legislation".
var topicWords = map[string]bool{
	"act": true, "law": true, "laws": true, "rules": true, "regulation": true, "regulations": true,
	"legislation": true, "regulators": true, "regulator": true, "commission": true,
	"parliament": true, "directive": true, "loi": true, "reglement": true, "reglementation": true,
}
