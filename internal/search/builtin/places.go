package builtin

import (
	"strings"

	"signals/internal/model"
)

// The place tables: what a query names when it asks for signals from a
// place, and what a signal's text names when it says where it is. Keys are
// folded words as the tokeniser gives them (lower case, no accents), with
// French elisions removed ("d'ivoire" is "ivoire") and hyphens as spaces;
// values are country keys of model.Countries.

// countryNames are the English and French names of countries, beyond the
// English short names that the country keys spell (added by placeTables).
// Queries and signal texts both use them.
var countryNames = map[string]string{
	"usa": "united_states", "america": "united_states", "etats unis": "united_states",
	"uk": "united_kingdom", "britain": "united_kingdom", "great britain": "united_kingdom",
	"england": "united_kingdom", "scotland": "united_kingdom", "wales": "united_kingdom",
	"royaume uni": "united_kingdom", "angleterre": "united_kingdom", "ecosse": "united_kingdom",
	"allemagne": "germany", "espagne": "spain", "italie": "italy", "suisse": "switzerland",
	"belgique": "belgium", "pays bas": "netherlands", "holland": "netherlands", "hollande": "netherlands",
	"suede": "sweden", "norvege": "norway", "danemark": "denmark", "finlande": "finland",
	"irlande": "ireland", "autriche": "austria", "pologne": "poland", "grece": "greece",
	"roumanie": "romania", "hongrie": "hungary", "tchequie": "czechia", "czech republic": "czechia",
	"islande": "iceland", "estonie": "estonia", "lettonie": "latvia", "lituanie": "lithuania",
	"ukraine": "ukraine", "russie": "russia", "turquie": "turkey", "chypre": "cyprus",
	"japon": "japan", "chine": "china", "coree du sud": "south_korea", "coree": "south_korea",
	"korea": "south_korea", "inde": "india", "singapour": "singapore", "indonesie": "indonesia",
	"malaisie": "malaysia", "thailande": "thailand", "viet nam": "vietnam", "australie": "australia",
	"nouvelle zelande": "new_zealand", "emirats arabes unis": "united_arab_emirates", "uae": "united_arab_emirates",
	"emirates": "united_arab_emirates", "arabie saoudite": "saudi_arabia", "israel": "israel",
	"egypte": "egypt", "maroc": "morocco", "algerie": "algeria", "tunisie": "tunisia",
	"senegal": "senegal", "ivory coast": "cote_d_ivoire", "cote ivoire": "cote_d_ivoire",
	"cameroun": "cameroon", "nigeria": "nigeria", "kenya": "kenya", "ethiopie": "ethiopia",
	"afrique du sud": "south_africa", "tanzanie": "tanzania", "ouganda": "uganda",
	"bresil": "brazil", "mexique": "mexico", "argentine": "argentina", "chili": "chile",
	"colombie": "colombia", "perou": "peru", "canada": "canada",
	"texas": "united_states", "california": "united_states", "californie": "united_states",
	"massachusetts": "united_states", "ontario": "canada", "bavaria": "germany", "baviere": "germany", "etats unis amerique": "united_states",
}

// countryAdjectives are the adjectives and demonyms of countries in English
// and French ("Canadian", "canadienne"), read in queries only: in a signal's
// text they more often name a language or a people than where it is.
var countryAdjectives = map[string]string{
	"american": "united_states", "americans": "united_states", "americain": "united_states",
	"americaine": "united_states", "americains": "united_states", "americaines": "united_states",
	"british": "united_kingdom", "brits": "united_kingdom", "english": "united_kingdom",
	"scottish": "united_kingdom", "britannique": "united_kingdom", "britanniques": "united_kingdom",
	"anglais": "united_kingdom", "anglaise": "united_kingdom",
	"canadian": "canada", "canadians": "canada", "canadien": "canada", "canadienne": "canada",
	"canadiens": "canada", "canadiennes": "canada", "quebecois": "canada", "quebecoise": "canada",
	"french": "france", "francais": "france", "francaise": "france", "francaises": "france",
	"parisian": "france", "parisien": "france", "parisienne": "france",
	"german": "germany", "germans": "germany", "allemand": "germany", "allemande": "germany",
	"allemands": "germany", "allemandes": "germany",
	"spanish": "spain", "espagnol": "spain", "espagnole": "spain", "espagnols": "spain",
	"italian": "italy", "italien": "italy", "italienne": "italy", "italiens": "italy",
	"swiss": "switzerland", "belgian": "belgium", "belge": "belgium", "belges": "belgium",
	"dutch": "netherlands", "neerlandais": "netherlands", "neerlandaise": "netherlands",
	"swedish": "sweden", "swede": "sweden", "swedes": "sweden", "suedois": "sweden", "suedoise": "sweden",
	"norwegian": "norway", "norvegien": "norway", "norvegienne": "norway",
	"danish": "denmark", "danois": "denmark", "finnish": "finland", "irish": "ireland", "irlandais": "ireland",
	"austrian": "austria", "autrichien": "austria", "polish": "poland", "portuguese": "portugal",
	"portugais": "portugal", "portugaise": "portugal", "greek": "greece",
	"japanese": "japan", "japonais": "japan", "japonaise": "japan",
	"chinese": "china", "chinois": "china", "chinoise": "china",
	"korean": "south_korea", "koreans": "south_korea", "coreen": "south_korea", "coreenne": "south_korea",
	"indian": "india", "indians": "india", "indien": "india", "indienne": "india", "indiens": "india",
	"singaporean": "singapore", "singapourien": "singapore", "australian": "australia",
	"australians": "australia", "australien": "australia", "australienne": "australia",
	"israeli": "israel", "israelis": "israel", "israelien": "israel", "israelienne": "israel",
	"emirati": "united_arab_emirates", "egyptian": "egypt", "egyptien": "egypt",
	"moroccan": "morocco", "marocain": "morocco", "marocaine": "morocco", "marocains": "morocco",
	"marocaines": "morocco", "algerian": "algeria", "algerien": "algeria", "tunisian": "tunisia",
	"tunisien": "tunisia", "senegalese": "senegal", "senegalais": "senegal", "senegalaise": "senegal",
	"ivorian": "cote_d_ivoire", "ivoirien": "cote_d_ivoire", "ivoirienne": "cote_d_ivoire",
	"ivoiriens": "cote_d_ivoire", "nigerian": "nigeria", "nigerians": "nigeria",
	"kenyan": "kenya", "kenyans": "kenya", "ghanaian": "ghana", "ghaneen": "ghana",
	"ghanaians": "ghana", "ethiopian": "ethiopia", "south african": "south_africa", "rwandan": "rwanda",
	"brazilian": "brazil", "bresilien": "brazil", "bresilienne": "brazil", "mexican": "mexico",
	"mexicain": "mexico", "mexicaine": "mexico", "argentinian": "argentina", "argentine": "argentina",
	"chilean": "chile", "colombian": "colombia",
}

// cities maps major cities (the technology hubs the signals come from, and
// capitals) to their country. Queries and signal texts both use them; a
// query that names a city asks for signals that name it.
var cities = map[string]string{
	"paris": "france", "lyon": "france", "marseille": "france", "toulouse": "france", "lille": "france",
	"bordeaux": "france", "nantes": "france", "grenoble": "france", "dijon": "france", "strasbourg": "france",
	"montpellier": "france", "rennes": "france", "sophia antipolis": "france", "saclay": "france",
	"london": "united_kingdom", "londres": "united_kingdom", "manchester": "united_kingdom",
	"bristol": "united_kingdom", "cambridge": "united_kingdom", "oxford": "united_kingdom",
	"edinburgh": "united_kingdom", "edimbourg": "united_kingdom", "glasgow": "united_kingdom",
	"birmingham": "united_kingdom", "leeds": "united_kingdom", "dundee": "united_kingdom",
	"berlin": "germany", "munich": "germany", "munchen": "germany", "hamburg": "germany", "hambourg": "germany",
	"frankfurt": "germany", "francfort": "germany", "cologne": "germany", "koln": "germany", "stuttgart": "germany",
	"madrid": "spain", "barcelona": "spain", "barcelone": "spain", "valencia": "spain", "seville": "spain",
	"lisbon": "portugal", "lisbonne": "portugal", "lisboa": "portugal", "porto": "portugal",
	"rome": "italy", "milan": "italy", "turin": "italy", "amsterdam": "netherlands", "rotterdam": "netherlands",
	"eindhoven": "netherlands", "brussels": "belgium", "bruxelles": "belgium", "antwerp": "belgium",
	"anvers": "belgium", "ghent": "belgium", "gand": "belgium", "liege": "belgium",
	"zurich": "switzerland", "geneva": "switzerland", "geneve": "switzerland", "lausanne": "switzerland",
	"basel": "switzerland", "bale": "switzerland", "vienna": "austria", "vienne": "austria",
	"stockholm": "sweden", "gothenburg": "sweden", "oslo": "norway", "copenhagen": "denmark",
	"copenhague": "denmark", "helsinki": "finland", "dublin": "ireland", "warsaw": "poland", "varsovie": "poland",
	"krakow": "poland", "prague": "czechia", "budapest": "hungary", "bucharest": "romania", "athens": "greece",
	"tallinn": "estonia", "kyiv": "ukraine", "kiev": "ukraine", "istanbul": "turkey",
	"new york": "united_states", "nyc": "united_states", "san francisco": "united_states", "sf": "united_states",
	"bay area": "united_states", "silicon valley": "united_states", "palo alto": "united_states",
	"mountain view": "united_states", "san jose": "united_states", "los angeles": "united_states",
	"seattle": "united_states", "boston": "united_states", "chicago": "united_states", "austin": "united_states",
	"dallas": "united_states", "houston": "united_states", "denver": "united_states", "atlanta": "united_states",
	"pittsburgh": "united_states", "miami": "united_states", "washington": "united_states",
	"san diego": "united_states", "detroit": "united_states", "phoenix": "united_states",
	"toronto": "canada", "montreal": "canada", "vancouver": "canada", "ottawa": "canada",
	"quebec": "canada", "calgary": "canada", "waterloo": "canada", "edmonton": "canada",
	"tokyo": "japan", "osaka": "japan", "kyoto": "japan", "yokohama": "japan", "nagoya": "japan",
	"seoul": "south_korea", "busan": "south_korea", "beijing": "china", "pekin": "china", "shanghai": "china",
	"shenzhen": "china", "hangzhou": "china", "guangzhou": "china", "hong kong": "hong_kong",
	"taipei": "taiwan", "bangalore": "india", "bengaluru": "india", "mumbai": "india", "delhi": "india",
	"new delhi": "india", "hyderabad": "india", "chennai": "india", "pune": "india",
	"sydney": "australia", "melbourne": "australia", "brisbane": "australia", "adelaide": "australia",
	"perth": "australia", "auckland": "new_zealand", "jakarta": "indonesia", "kuala lumpur": "malaysia",
	"bangkok": "thailand", "manila": "philippines", "ho chi minh": "vietnam", "hanoi": "vietnam",
	"tel aviv": "israel", "jerusalem": "israel", "haifa": "israel", "dubai": "united_arab_emirates",
	"abu dhabi": "united_arab_emirates", "riyadh": "saudi_arabia", "doha": "qatar",
	"cairo": "egypt", "le caire": "egypt", "casablanca": "morocco", "rabat": "morocco", "marrakech": "morocco",
	"tunis": "tunisia", "alger": "algeria", "algiers": "algeria", "dakar": "senegal", "abidjan": "cote_d_ivoire",
	"lagos": "nigeria", "abuja": "nigeria", "accra": "ghana", "nairobi": "kenya", "mombasa": "kenya",
	"kigali": "rwanda", "addis ababa": "ethiopia", "johannesburg": "south_africa", "cape town": "south_africa",
	"le cap": "south_africa", "kampala": "uganda", "douala": "cameroon", "yaounde": "cameroon",
	"sao paulo": "brazil", "rio de janeiro": "brazil", "ribeirao preto": "brazil",
	"mexico city": "mexico", "monterrey": "mexico", "guadalajara": "mexico", "buenos aires": "argentina",
	"santiago": "chile", "bogota": "colombia", "lima": "peru", "medellin": "colombia",
}

// regions are names and adjectives of regions, with the countries they
// span, read in queries only.
var regions = map[string][]string{
	"europe": europe, "european": europe, "europeans": europe, "europeen": europe, "europeenne": europe,
	"europeens": europe, "europeennes": europe, "eu": euMembers, "union europeenne": euMembers,
	"european union": euMembers,
	"africa":         africa, "african": africa, "africans": africa, "afrique": africa, "africain": africa,
	"africaine": africa, "africains": africa, "africaines": africa,
	"west africa": westAfrica, "afrique de ouest": westAfrica, "francophone africa": francophoneAfrica,
	"afrique francophone": francophoneAfrica, "east africa": eastAfrica, "afrique de est": eastAfrica,
	"north africa": northAfrica, "afrique du nord": northAfrica, "maghreb": northAfrica,
	"latin america": latinAmerica, "latin american": latinAmerica, "latam": latinAmerica,
	"south america": southAmerica, "amerique latine": latinAmerica, "amerique du sud": southAmerica,
	"north america": {"united_states", "canada", "mexico"}, "amerique du nord": {"united_states", "canada", "mexico"},
	"asia": asia, "asian": asia, "asie": asia, "asiatique": asia, "asiatiques": asia,
	"east asia":      {"japan", "south_korea", "china", "taiwan", "hong_kong"},
	"southeast asia": {"singapore", "indonesia", "malaysia", "thailand", "philippines", "vietnam"},
	"middle east":    {"israel", "united_arab_emirates", "saudi_arabia", "qatar", "egypt", "jordan", "lebanon", "turkey"},
	"moyen orient":   {"israel", "united_arab_emirates", "saudi_arabia", "qatar", "egypt", "jordan", "lebanon", "turkey"},
	"nordics":        nordics, "nordic": nordics, "scandinavia": nordics, "scandinavian": nordics,
	"scandinavie": nordics, "nordique": nordics, "nordiques": nordics,
	"oceania": {"australia", "new_zealand"}, "oceanie": {"australia", "new_zealand"},
}

var (
	euMembers = []string{"austria", "belgium", "bulgaria", "croatia", "cyprus", "czechia", "denmark",
		"estonia", "finland", "france", "germany", "greece", "hungary", "ireland", "italy", "latvia",
		"lithuania", "luxembourg", "malta", "netherlands", "poland", "portugal", "romania", "slovakia",
		"slovenia", "spain", "sweden"}
	europe = append([]string{"united_kingdom", "switzerland", "norway", "iceland", "ukraine", "serbia",
		"albania", "bosnia_and_herzegovina", "montenegro", "north_macedonia", "moldova", "belarus",
		"liechtenstein", "monaco", "andorra", "san_marino", "kosovo"}, euMembers...)
	westAfrica = []string{"senegal", "cote_d_ivoire", "nigeria", "ghana", "mali", "burkina_faso", "benin",
		"togo", "guinea", "niger", "sierra_leone", "liberia", "gambia", "guinea_bissau", "cabo_verde", "mauritania"}
	eastAfrica  = []string{"kenya", "ethiopia", "tanzania", "uganda", "rwanda", "burundi", "somalia", "djibouti", "eritrea", "south_sudan"}
	northAfrica = []string{"morocco", "algeria", "tunisia", "libya", "egypt", "mauritania"}
	africa      = append(append(append([]string{"south_africa", "cameroon", "democratic_republic_of_the_congo",
		"congo", "gabon", "angola", "zambia", "zimbabwe", "mozambique", "namibia", "botswana", "madagascar",
		"malawi", "sudan", "chad", "central_african_republic", "equatorial_guinea", "lesotho", "eswatini",
		"mauritius", "seychelles", "comoros", "sao_tome_and_principe"}, westAfrica...), eastAfrica...), northAfrica...)
	francophoneAfrica = []string{"senegal", "cote_d_ivoire", "mali", "burkina_faso", "benin", "togo", "guinea",
		"niger", "cameroon", "gabon", "congo", "democratic_republic_of_the_congo", "madagascar", "morocco",
		"algeria", "tunisia", "chad", "central_african_republic", "djibouti", "comoros", "rwanda", "burundi"}
	southAmerica = []string{"brazil", "argentina", "chile", "colombia", "peru", "venezuela", "ecuador",
		"bolivia", "paraguay", "uruguay", "guyana", "suriname"}
	latinAmerica = append([]string{"mexico", "guatemala", "honduras", "el_salvador", "nicaragua", "costa_rica",
		"panama", "cuba", "dominican_republic", "puerto_rico"}, southAmerica...)
	asia = []string{"japan", "south_korea", "china", "taiwan", "hong_kong", "india", "singapore", "indonesia",
		"malaysia", "thailand", "philippines", "vietnam", "pakistan", "bangladesh", "sri_lanka", "nepal",
		"cambodia", "laos", "myanmar", "mongolia", "kazakhstan", "uzbekistan"}
	nordics = []string{"sweden", "norway", "denmark", "finland", "iceland"}
)

// capitalOnly are place words that are also common words or first names
// ("Jordan", "turkey", "us"); they name a place in a query only when
// written with a capital ("US" in capitals), and never in a signal's text.
var capitalOnly = map[string]bool{
	"chad": true, "jordan": true, "turkey": true, "georgia": true, "china": true, "guinea": true,
	"niger": true, "mali": true, "peru": true, "togo": true, "us": true, "washington": true,
	"phoenix": true, "perth": true, "santiago": true, "lima": true, "reading": true, "cologne": true,
	"chili": true, "argentine": true, "america": true, "cambridge": true, "oxford": true, "porto": true,
	"sf": true, "eu": true, "vienne": true, "quebec": true, "austin": true, "dominica": true,
	"bale": true, "gand": true,
}

// upperOnly are place words that name a place only when written entirely in
// capitals: "US", where "us" is a pronoun.
var upperOnly = map[string]bool{"us": true}

// placeKind says what a place word names.
type placeKind uint8

const (
	placeCountry   placeKind = iota + 1 // a country's name: queries and texts
	placeAdjective                      // an adjective or demonym: queries only
	placeCity                           // a city: queries and texts
	placeRegion                         // a region: queries only
)

// placeEntry is one place word (possibly several words) and what it names.
type placeEntry struct {
	kind      placeKind
	countries []string
	city      string // the city's folded name, for placeCity
}

// placeTable returns every place word with what it names: the tables above
// and the English short names spelled by the country keys.
func placeTable() map[string]placeEntry {
	t := map[string]placeEntry{}
	for _, k := range model.Countries {
		t[strings.ReplaceAll(k, "_", " ")] = placeEntry{kind: placeCountry, countries: []string{k}}
	}
	t["us"] = placeEntry{kind: placeCountry, countries: []string{"united_states"}}
	for w, k := range countryNames {
		t[w] = placeEntry{kind: placeCountry, countries: []string{k}}
	}
	for w, k := range countryAdjectives {
		t[w] = placeEntry{kind: placeAdjective, countries: []string{k}}
	}
	for w, k := range cities {
		t[w] = placeEntry{kind: placeCity, countries: []string{k}, city: w}
	}
	for w, ks := range regions {
		t[w] = placeEntry{kind: placeRegion, countries: ks}
	}
	return t
}
