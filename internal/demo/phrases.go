package demo

// Word and phrase pools of the synthetic generator. Sentences are templates
// whose {placeholders} synth.fill replaces. One signal keeps the same topic,
// robot, company, city, model and product throughout, so that its text reads
// as one post about one thing: {topic}, {robot}, {company}, {city}, {model},
// {product}. The others vary per use: {n} (10 to 959), {small} (2 to 41),
// {pct} (5 to 64), {money}, {person}, {skill}, {event}.

// syntheticLanguages are the written languages of synthetic texts and the
// language field they are filed under.
var syntheticLanguages = map[string]string{"en": "en", "fr": "fr", "es": "other", "de": "other", "pt": "other"}

var synthCountries = []string{
	"united_states", "united_states", "united_states", "united_kingdom", "france", "france", "germany",
	"canada", "india", "japan", "china", "south_korea", "singapore", "israel", "netherlands", "sweden",
	"switzerland", "spain", "italy", "portugal", "belgium", "ireland", "poland", "austria", "denmark",
	"finland", "norway", "brazil", "mexico", "argentina", "chile", "colombia", "nigeria", "kenya",
	"ghana", "south_africa", "egypt", "morocco", "senegal", "cote_d_ivoire", "united_arab_emirates",
	"saudi_arabia", "turkey", "australia", "new_zealand", "indonesia", "vietnam", "taiwan", "hong_kong",
}

var firstNames = []string{
	"Ada", "Amara", "Anders", "Aiko", "Bea", "Bruno", "Camila", "Chidi", "Dara", "Elif", "Emeka", "Farah",
	"Gustavo", "Hana", "Ines", "Ivo", "Jana", "Joaquín", "Kofi", "Leila", "Lena", "Luca", "Mateo", "Maëlle",
	"Nadia", "Nils", "Oona", "Paulo", "Quentin", "Rania", "Rui", "Sanne", "Sipho", "Tariq", "Teodora", "Uma",
	"Viktor", "Wen", "Xavier", "Yara", "Yusuf", "Zofia", "Élodie", "Søren", "Björn", "Chiara", "Kenta", "Minh",
}

var lastNames = []string{
	"Abara", "Almeida", "Bauer", "Berger", "Castillo", "Chowdhury", "Dubois", "Eklund", "Fontaine", "García",
	"Halvorsen", "Ibarra", "Jovanović", "Kato", "Kowalczyk", "Laurent", "Mbeki", "Moreau", "Nakagawa", "Novak",
	"Okonkwo", "Oliveira", "Petrakis", "Quist", "Rahman", "Rossi", "Sato", "Schreiber", "Takahashi", "Uchenna",
	"Varga", "Vermeulen", "Wójcik", "Xu", "Yilmaz", "Zapata", "Lindqvist", "Haddad", "Mensah", "Ferreira",
}

var handleWords = []string{
	"tensor", "gradient", "kernel", "cache", "vector", "robot", "lidar", "token", "prompt", "batch",
	"async", "null", "byte", "quant", "sparse", "dense", "latent", "agent", "matrix", "pixel",
}

var roles = map[string][]string{
	"en": {"ML Engineer", "Senior ML Engineer", "Research Scientist", "Head of AI", "CTO", "CEO", "Founder",
		"Product Manager", "Robotics Engineer", "Data Scientist", "Investor", "Partner", "Developer Advocate",
		"Staff Engineer", "Recruiter", "Policy Analyst"},
	"fr": {"Ingénieure ML", "Ingénieur ML", "Directeur technique", "Directrice technique", "Chercheuse", "Chercheur",
		"Fondatrice", "Fondateur", "Cheffe de produit", "Data scientist", "Investisseuse", "Responsable IA"},
	"es": {"Ingeniera de ML", "Ingeniero de ML", "Directora técnica", "Fundador", "Investigadora", "Responsable de IA"},
	"de": {"ML-Ingenieurin", "ML-Ingenieur", "Technischer Leiter", "Gründerin", "Forscher", "Leiterin KI"},
	"pt": {"Engenheira de ML", "Engenheiro de ML", "Diretor técnico", "Fundadora", "Pesquisador", "Líder de IA"},
}

var companyHeads = []string{
	"Nova", "Brisk", "Lumen", "Aster", "Cobalt", "Delta", "Ember", "Fathom", "Granite", "Halo", "Iris",
	"Juniper", "Kite", "Larch", "Meridian", "Nimbus", "Orbit", "Pilot", "Quill", "Ridge", "Sable", "Tidal",
	"Umbra", "Vesper", "Willow", "Zephyr",
}

var companyTails = []string{" Labs", " AI", " Robotics", " Systems", "works", " Data", " Dynamics", " Health", " Compute", " Cloud"}

var modelNames = []string{"Aurel", "Bramble", "Kestrel", "Lumen", "Hikari", "Sauti", "Corvid", "Tern", "Osprey", "Marlin"}

var cities = []string{
	"Paris", "Berlin", "London", "Lyon", "Montréal", "Toronto", "Austin", "Seattle", "Boston", "Lagos",
	"Nairobi", "Accra", "Bengaluru", "Pune", "Tokyo", "Seoul", "Singapore", "Tel Aviv", "Zürich", "Munich",
	"Amsterdam", "Stockholm", "Madrid", "Barcelona", "Lisbon", "São Paulo", "Mexico City", "Dakar", "Abidjan",
	"Sydney", "Dublin", "Warsaw",
}

var skills = []string{"PyTorch", "CUDA", "Rust", "Go", "Kubernetes", "ROS 2", "distributed training", "C++", "MLOps", "Triton"}

// topics[lang][i] name the same subject in every language.
var topics = map[string][]string{
	"en": {"vector search", "retrieval-augmented generation", "open-weight models", "coding assistants",
		"AI agents", "speech recognition", "GPU infrastructure", "model evaluation", "the EU AI Act",
		"AI in healthcare", "robot learning", "autonomous driving", "warehouse automation", "drone inspection",
		"multilingual models", "fraud detection"},
	"fr": {"la recherche vectorielle", "la génération augmentée par la recherche", "les modèles ouverts",
		"les assistants de code", "les agents IA", "la reconnaissance vocale", "l'infrastructure GPU",
		"l'évaluation des modèles", "l'AI Act", "l'IA en santé", "l'apprentissage robotique",
		"la conduite autonome", "l'automatisation des entrepôts", "l'inspection par drone",
		"les modèles multilingues", "la détection de fraude"},
	"es": {"la búsqueda vectorial", "la generación aumentada por recuperación", "los modelos abiertos",
		"los asistentes de programación", "los agentes de IA", "el reconocimiento de voz",
		"la infraestructura de GPU", "la evaluación de modelos", "la Ley de IA de la UE", "la IA en salud",
		"el aprendizaje robótico", "la conducción autónoma", "la automatización de almacenes",
		"la inspección con drones", "los modelos multilingües", "la detección de fraude"},
	"de": {"Vektorsuche", "Retrieval-Augmented Generation", "offene Modelle", "KI-Programmierassistenten",
		"KI-Agenten", "Spracherkennung", "GPU-Infrastruktur", "Modellevaluierung", "KI-Verordnung",
		"KI im Gesundheitswesen", "Roboterlernen", "autonomes Fahren", "Lagerautomatisierung",
		"Drohneninspektion", "mehrsprachige Modelle", "Betrugserkennung"},
	"pt": {"busca vetorial", "geração aumentada por recuperação", "modelos abertos",
		"assistentes de programação", "agentes de IA", "reconhecimento de voz", "infraestrutura de GPU",
		"avaliação de modelos", "Lei de IA da UE", "IA na saúde", "aprendizado robótico", "direção autônoma",
		"automação de armazéns", "inspeção com drones", "modelos multilíngues", "detecção de fraude"},
}

// robots[lang][i] name the same machine in every language (German in the plural).
var robots = map[string][]string{
	"en": {"humanoid robot", "autonomous mobile robot", "picking arm", "robotaxi", "autonomous truck",
		"inspection drone", "agricultural drone", "delivery robot"},
	"fr": {"robot humanoïde", "robot mobile autonome", "bras de préhension", "robotaxi", "camion autonome",
		"drone d'inspection", "drone agricole", "robot de livraison"},
	"es": {"robot humanoide", "robot móvil autónomo", "brazo robótico", "robotaxi", "camión autónomo",
		"dron de inspección", "dron agrícola", "robot de reparto"},
	"de": {"Humanoidroboter", "Transportroboter", "Greifroboter", "Robotaxis", "Lkw ohne Fahrer",
		"Inspektionsdrohnen", "Agrardrohnen", "Lieferroboter"},
	"pt": {"robô humanoide", "robô móvel autônomo", "braço robótico", "robotáxi", "caminhão autônomo",
		"drone de inspeção", "drone agrícola", "robô de entrega"},
}

var products = map[string][]string{
	"en": {"its coding assistant", "an agent platform", "a speech-to-text API", "a vector database",
		"an inference service", "a clinical scribe", "an evaluation toolkit", "a reranking API",
		"an on-device model", "a GPU cloud", "an AI tutor", "a document parser"},
	"fr": {"son assistant de code", "une plateforme d'agents", "une API de transcription", "une base vectorielle",
		"un service d'inférence", "un assistant de rédaction médicale", "un outil d'évaluation", "un tuteur IA"},
	"es": {"su asistente de programación", "una plataforma de agentes", "una API de transcripción", "una base de datos vectorial"},
	"de": {"einen Programmierassistenten", "eine Agentenplattform", "eine Transkriptions-API", "eine Vektordatenbank"},
	"pt": {"seu assistente de programação", "uma plataforma de agentes", "uma API de transcrição", "um banco de dados vetorial"},
}

var events = map[string][]string{
	"en": {"meetup", "hackathon", "conference", "workshop", "webinar", "summit", "demo day", "reading group"},
	"fr": {"meetup", "hackathon", "colloque", "séminaire", "webinaire", "sommet"},
	"es": {"meetup", "hackathon", "congreso", "taller"},
	"de": {"Meetup", "Barcamp", "Treffen", "Forum"},
	"pt": {"meetup", "hackathon", "congresso", "workshop"},
}

// sentences[lang][tag] are the templates of a tag; [lang][""] those any tag may use.
var sentences = map[string]map[string][]string{
	"en": {
		"": {
			"Curious what others think about {topic} right now.",
			"The hard part is never the demo, it's the last {pct}% of cases.",
			"We will share the numbers, including the ones that don't look good.",
			"If you work on {topic}, my DMs are open.",
			"Lots of hype around {topic}, but the teams shipping quietly are the ones to watch.",
			"Costs came down about {pct}% compared with last year.",
			"Evaluation on your own data beats any leaderboard.",
			"Thanks to everyone in {city} who helped make this happen.",
			"Latency matters more than most benchmarks admit.",
			"Happy to answer questions in the comments.",
			"Full write-up in the link below.",
			"This took {small} weeks longer than we planned, as usual.",
			"The people closest to the work had the best ideas, again.",
			"Nothing here is magic: good data, careful tests, and patience.",
			"I'd love to compare notes with anyone doing {topic} in {city}.",
		},
		"job": {
			"{company} is hiring a {skill} engineer in {city} to work on {topic}.",
			"We're hiring! Our team in {city} is looking for people who know {skill} and care about {topic}.",
			"Open role: senior ML engineer for {topic}, remote or hybrid in {city}.",
			"You will own the pipeline from data collection to production monitoring.",
			"The salary band is on the listing, and we sponsor visas.",
			"Experience with {skill} is a plus; curiosity is a must.",
			"Interviews are practical: we debug a real system together instead of whiteboard puzzles.",
			"The team is {small} people today and we want to double it this year.",
			"You'll work closely with customers, so clear writing matters as much as code.",
			"Junior applicants with strong projects are welcome too.",
			"We care about evaluation: every change ships with a test that would have caught the old bug.",
			"Please share with anyone in {city} who might be interested.",
		},
		"funding": {
			"{company} has raised {money} to scale {product}.",
			"Proud to announce our {money} Series A, led by a fund that specialises in {topic}.",
			"The round will fund {small} new hires and our first office in {city}.",
			"Investors are still paying up for {topic}, but they want revenue now.",
			"{company} closed a {money} seed round to build {product}.",
			"We'll spend the money on compute, data and the team, roughly in that order.",
			"Rounds in {topic} are getting larger, and fewer, according to our tracker.",
			"Our existing investors all came back into this round, which means a lot.",
			"Revenue grew {small}x over the last twelve months, mostly from customers in {city}.",
			"We intend to stay independent and keep building {product} for the long run.",
			"The company started in a spare room in {city} three years ago.",
			"Part of the round comes from customers who became investors.",
		},
		"product_launch": {
			"Today {company} launches {product}, built for {topic}.",
			"We just released {model}, an open-weight model with a permissive licence.",
			"{model} runs on a single GPU when quantised to 4 bits.",
			"The new release cuts latency by {pct}% and supports {small} languages.",
			"Available today, with a free tier for developers.",
			"It's open source, and we'd love bug reports.",
			"Early customers saw a {pct}% improvement on their own benchmarks.",
			"The API is compatible with what you already use, so switching takes minutes.",
			"We published a model card, the evaluation set and our known limitations.",
			"Self-hosting is supported from day one for teams with strict data rules.",
			"Pricing is per request, with no minimum commitment.",
			"Next on the roadmap: better support for {topic} and more regions.",
		},
		"product_feedback": {
			"I've used {company}'s product for {n} days; honest review below.",
			"{model} is great at summarising and weaker at multi-step reasoning.",
			"It writes plausible code that fails our tests roughly {pct}% of the time.",
			"Support was fast, but the documentation is thin.",
			"Pricing is fair; rate limits during peak hours are not.",
			"After switching, our p95 latency dropped from {n} ms to about a third of that.",
			"Would I recommend it? Yes, with guardrails and human review.",
			"Recall with metadata filters was lower than the vendor claimed.",
			"The onboarding took an afternoon, the edge cases took a month.",
			"Our users noticed the difference within a week, mostly in a good way.",
			"The one thing I'd change: clearer errors when something goes wrong.",
			"We measured it on {n} real tickets before deciding.",
		},
		"physical_ai": {
			"Our {robot} fleet completed {n} hours of work this month with {pct}% fewer interventions.",
			"The {robot} in our {city} site now handles tasks that used to need two people per shift.",
			"Sim-to-real transfer still needed a few hours of real-world fine-tuning.",
			"The hands, not the AI, remain the bottleneck for manipulation.",
			"Safety first: the {robot} stops whenever a person enters its zone.",
			"We trained the policy on {n} teleoperated demonstrations.",
			"Weather is the real test for any {robot} working outdoors.",
			"Uptime over the last quarter was above 97%, charging included.",
			"Operators now supervise the {robot} fleet instead of doing the walking.",
			"Every failure gets labelled and goes back into training the next week.",
			"The {robot} still struggles with shiny, floppy and transparent things.",
			"Regulators in {city} asked for our incident logs, and we shared all of them.",
		},
		"events": {
			"Join our {topic} {event} in {city} next week.",
			"Great {event} in {city} tonight: {n} people and three excellent talks on {topic}.",
			"Registrations for the {topic} {event} are open; beginners are welcome.",
			"Slides and recordings will be online after the {event}.",
			"The best talk at the {event} was a live failure, debugged on stage.",
			"Our team presented results on {topic} at the {event} in {city}.",
			"Travel grants are available for students.",
			"Doors open at 6 pm; food and drinks are on the sponsors.",
			"We're looking for speakers with real production stories, not vendor pitches.",
			"The {event} is free, but please register so we can plan seats.",
			"Thanks to {person} for hosting and to the volunteers who made it run.",
			"Next edition in {city}, date to be announced.",
		},
		"other": {
			"Opinion: the hype around {topic} is too high for the short term and too low for the long term.",
			"New paper on {topic}: the gains shrink a lot once you control for data contamination.",
			"The GPU shortage moved: now the bottleneck is power and grid connections.",
			"Regulation is coming for {topic}, and documentation is the cheapest place to start.",
			"Treat retrieved text as data, never as instructions.",
			"Energy use of inference now exceeds training at most companies we talk to.",
			"Teachers and students are still working out what AI means for homework.",
			"The most valuable AI skill this year is building a good test set.",
			"Open data with consent and fair pay is slower, and it is the only kind that lasts.",
			"Leaderboards tell you less every month; your own prompts tell you more.",
			"Public compute for universities would change which research gets done.",
			"Most AI policy debates would improve with one real compliance checklist on the table.",
		},
	},
	"fr": {
		"": {
			"Curieux d'avoir vos retours sur {topic}.",
			"Le plus dur n'est jamais la démo, ce sont les {pct} % de cas restants.",
			"Nous partagerons les chiffres, y compris ceux qui fâchent.",
			"Merci à toutes les personnes à {city} qui ont rendu cela possible.",
			"L'évaluation sur vos propres données vaut mieux que n'importe quel classement.",
			"Le compte rendu complet est en lien.",
			"Rien de magique : de bonnes données, des tests sérieux et de la patience.",
			"Les personnes sur le terrain ont eu les meilleures idées, encore une fois.",
		},
		"job": {
			"{company} recrute un·e ingénieur·e {skill} à {city} pour travailler sur {topic}.",
			"Nous cherchons quelqu'un de curieux, à l'aise avec {skill}.",
			"Poste en CDI, télétravail partiel possible, fourchette de salaire publiée.",
			"L'équipe compte {small} personnes et veut doubler cette année.",
			"Les candidatures de profils juniors avec de beaux projets sont bienvenues.",
			"Les entretiens sont pratiques : on débogue ensemble un vrai système.",
		},
		"funding": {
			"{company} lève {money} pour accélérer sur {topic}.",
			"Ce financement servira à recruter {small} personnes et à ouvrir un bureau à {city}.",
			"Les investisseurs restent intéressés par {topic}, mais ils veulent du chiffre d'affaires.",
			"Nos investisseurs historiques ont tous remis au pot, et ça compte beaucoup pour nous.",
			"L'argent ira au calcul, aux données et à l'équipe, à peu près dans cet ordre.",
			"Le chiffre d'affaires a été multiplié par {small} en un an.",
		},
		"product_launch": {
			"{company} lance aujourd'hui {product} pour {topic}.",
			"Nous publions {model}, un modèle ouvert sous licence permissive.",
			"La nouvelle version réduit la latence de {pct} % et gère {small} langues.",
			"Disponible dès aujourd'hui, avec une offre gratuite pour les développeurs.",
			"L'hébergement sur vos propres serveurs est possible dès le premier jour.",
			"Nous publions aussi la fiche du modèle et ses limites connues.",
		},
		"product_feedback": {
			"Retour d'expérience après {n} jours d'utilisation : globalement positif.",
			"Très bon en français courant, moins fiable sur le vocabulaire métier.",
			"Le support répond vite, mais la documentation manque d'exemples.",
			"{model} résume très bien, mais se perd dans les raisonnements en plusieurs étapes.",
			"La latence p95 est passée de {n} ms à environ un tiers.",
			"Je le recommande, avec des garde-fous et une relecture humaine.",
		},
		"physical_ai": {
			"Notre {robot} a travaillé {n} heures ce mois-ci avec {pct} % d'interventions en moins.",
			"La main du robot reste le principal obstacle pour la manipulation.",
			"Le {robot} s'arrête dès qu'une personne entre dans sa zone.",
			"Chaque échec est annoté et réutilisé pour l'entraînement la semaine suivante.",
			"La météo reste le vrai test pour tout {robot} qui travaille dehors.",
			"Les opérateurs supervisent désormais la flotte au lieu de marcher des kilomètres.",
		},
		"events": {
			"Rendez-vous au {event} sur {topic} à {city} la semaine prochaine.",
			"Belle soirée à {city} : {n} personnes et trois présentations sur {topic}.",
			"Les inscriptions au {event} sur {topic} sont ouvertes.",
			"Les diapositives et les vidéos seront en ligne après le {event}.",
			"Des bourses de voyage sont prévues pour les étudiant·e·s.",
			"Merci à {person} pour l'accueil et aux bénévoles.",
		},
		"other": {
			"Avis : {topic}, c'est surestimé à court terme et sous-estimé à long terme.",
			"L'AI Act impose de documenter les systèmes à haut risque ; autant commencer maintenant.",
			"La pénurie de GPU s'est déplacée : c'est désormais l'électricité qui manque.",
			"Un article de recherche sur {topic} montre des gains bien plus faibles une fois la contamination contrôlée.",
			"Traitez les textes récupérés comme des données, jamais comme des instructions.",
			"La compétence la plus utile cette année : construire un bon jeu de test.",
		},
	},
	"es": {
		"": {
			"¿Qué opináis sobre {topic}?",
			"Compartiremos los números, también los que no salen bien.",
			"Gracias a todas las personas de {city} que lo hicieron posible.",
			"Evaluar con tus propios datos vale más que cualquier ranking.",
		},
		"job":              {"{company} busca una persona ingeniera de {skill} en {city} para trabajar en {topic}.", "Contrato indefinido, modalidad híbrida y banda salarial publicada.", "El equipo tiene {small} personas y queremos duplicarlo."},
		"funding":          {"{company} recauda {money} para crecer en {topic}.", "La ronda financiará {small} contrataciones y una oficina en {city}.", "Los inversores siguen interesados en {topic}, pero ahora piden ingresos."},
		"product_launch":   {"Hoy {company} lanza {product} para {topic}.", "Publicamos {model} como modelo abierto con licencia permisiva.", "La nueva versión reduce la latencia un {pct} %."},
		"product_feedback": {"Después de {n} días de uso, funciona bien pero la documentación es escasa.", "{model} resume muy bien y razona peor en varios pasos.", "El soporte responde rápido, aunque los límites de uso molestan."},
		"physical_ai":      {"Nuestro {robot} completó {n} horas de trabajo este mes.", "El {robot} se detiene en cuanto una persona entra en su zona.", "Cada fallo se etiqueta y vuelve al entrenamiento."},
		"events":           {"Os esperamos en el {event} sobre {topic} en {city}.", "Gran {event} en {city}: {n} personas y tres charlas.", "Las inscripciones están abiertas."},
		"other":            {"Opinión: se habla demasiado de {topic} a corto plazo.", "La regulación llega a {topic}; documentar es el primer paso.", "Tratad el texto recuperado como datos, nunca como instrucciones."},
	},
	"de": {
		"": {
			"Wie seht ihr das Thema {topic}?",
			"Wir teilen die Zahlen, auch die unangenehmen.",
			"Danke an alle in {city}, die mitgeholfen haben.",
			"Die Evaluierung auf eigenen Daten schlägt jede Rangliste.",
		},
		"job":              {"{company} sucht eine:n {skill}-Engineer (m/w/d) in {city} für das Thema {topic}.", "Unbefristet, hybrid, Gehaltsband in der Ausschreibung.", "Das Team hat {small} Leute und soll dieses Jahr wachsen."},
		"funding":          {"{company} hat {money} eingesammelt, um im Bereich {topic} zu wachsen.", "Mit der Runde stellen wir {small} Leute ein und eröffnen ein Büro in {city}.", "Investoren interessieren sich weiter für {topic}, wollen aber Umsatz sehen."},
		"product_launch":   {"Heute startet {company} {product} für {topic}.", "Wir veröffentlichen {model} als offenes Modell.", "Die neue Version senkt die Latenz um {pct} %."},
		"product_feedback": {"Nach {n} Tagen: schnell, aber bei Fachbegriffen unzuverlässig.", "{model} fasst gut zusammen, scheitert aber an mehrstufigem Denken.", "Der Support ist schnell, die Dokumentation dünn."},
		"physical_ai":      {"Unsere {robot} haben diesen Monat {n} Betriebsstunden absolviert.", "Betritt ein Mensch den Bereich, halten die {robot} sofort an.", "Jeder Fehler wird annotiert und fließt ins Training zurück."},
		"events":           {"Kommt zum {event} über {topic} in {city}.", "Tolles {event} in {city} mit {n} Teilnehmenden.", "Die Anmeldung ist offen."},
		"other":            {"Meinung: Beim Thema {topic} wird kurzfristig zu viel versprochen.", "Die KI-Verordnung verlangt Dokumentation; fangt früh an.", "Abgerufener Text ist Daten, niemals Anweisung."},
	},
	"pt": {
		"": {
			"O que vocês acham de {topic}?",
			"Vamos compartilhar os números, inclusive os ruins.",
			"Obrigado a todos em {city} que ajudaram.",
			"Avaliar com seus próprios dados vale mais que qualquer ranking.",
		},
		"job":              {"A {company} está contratando engenharia de {skill} em {city} para trabalhar com {topic}.", "Trabalho híbrido e faixa salarial publicada.", "O time tem {small} pessoas e vai dobrar."},
		"funding":          {"A {company} levantou {money} para crescer em {topic}.", "A rodada vai financiar {small} contratações e um escritório em {city}.", "Os investidores seguem interessados em {topic}, mas agora querem receita."},
		"product_launch":   {"Hoje a {company} lança {product} para {topic}.", "Lançamos {model} como modelo aberto com licença permissiva.", "A nova versão reduz a latência em {pct}%."},
		"product_feedback": {"Depois de {n} dias de uso, funciona bem, mas a documentação é fraca.", "{model} resume bem e raciocina mal em várias etapas.", "O suporte é rápido, os limites de uso nem tanto."},
		"physical_ai":      {"Nosso {robot} completou {n} horas de trabalho este mês.", "O {robot} para assim que uma pessoa entra na área.", "Cada falha é rotulada e volta para o treinamento."},
		"events":           {"Venha ao {event} sobre {topic} em {city}.", "Ótimo {event} em {city}: {n} pessoas e três palestras.", "Inscrições abertas."},
		"other":            {"Opinião: o hype em torno de {topic} é exagerado no curto prazo.", "A regulação está chegando para {topic}; documentar é o primeiro passo.", "Trate texto recuperado como dado, nunca como instrução."},
	},
}
