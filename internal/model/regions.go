package model

// Region is a part of the world and the country keys it holds, in the order
// of Countries.
type Region struct {
	Name      string
	Countries []string
}

// Regions groups Countries by continent, for forms that list them all. Each
// country is in exactly one region; Cyprus, Russia and Turkey are where
// people in Europe and Asia usually look for them.
var Regions = []Region{
	{"Africa", []string{
		"algeria", "angola", "benin", "botswana", "burkina_faso", "burundi", "cabo_verde",
		"cameroon", "central_african_republic", "chad", "comoros", "congo", "cote_d_ivoire",
		"democratic_republic_of_the_congo", "djibouti", "egypt", "equatorial_guinea",
		"eritrea", "eswatini", "ethiopia", "gabon", "gambia", "ghana", "guinea",
		"guinea_bissau", "kenya", "lesotho", "liberia", "libya", "madagascar", "malawi",
		"mali", "mauritania", "mauritius", "morocco", "mozambique", "namibia", "niger",
		"nigeria", "rwanda", "sao_tome_and_principe", "senegal", "seychelles",
		"sierra_leone", "somalia", "south_africa", "south_sudan", "sudan", "tanzania",
		"togo", "tunisia", "uganda", "zambia", "zimbabwe",
	}},
	{"Americas", []string{
		"antigua_and_barbuda", "argentina", "bahamas", "barbados", "belize", "bolivia",
		"brazil", "canada", "chile", "colombia", "costa_rica", "cuba", "dominica",
		"dominican_republic", "ecuador", "el_salvador", "grenada", "guatemala", "guyana",
		"haiti", "honduras", "jamaica", "mexico", "nicaragua", "panama", "paraguay", "peru",
		"puerto_rico", "saint_kitts_and_nevis", "saint_lucia",
		"saint_vincent_and_the_grenadines", "suriname", "trinidad_and_tobago",
		"united_states", "uruguay", "venezuela",
	}},
	{"Asia", []string{
		"afghanistan", "armenia", "azerbaijan", "bahrain", "bangladesh", "bhutan", "brunei",
		"cambodia", "china", "georgia", "hong_kong", "india", "indonesia", "iran", "iraq",
		"israel", "japan", "jordan", "kazakhstan", "kuwait", "kyrgyzstan", "laos", "lebanon",
		"malaysia", "maldives", "mongolia", "myanmar", "nepal", "north_korea", "oman",
		"pakistan", "palestine", "philippines", "qatar", "saudi_arabia", "singapore",
		"south_korea", "sri_lanka", "syria", "taiwan", "tajikistan", "thailand",
		"timor_leste", "turkey", "turkmenistan", "united_arab_emirates", "uzbekistan",
		"vietnam", "yemen",
	}},
	{"Europe", []string{
		"albania", "andorra", "austria", "belarus", "belgium", "bosnia_and_herzegovina",
		"bulgaria", "croatia", "cyprus", "czechia", "denmark", "estonia", "finland", "france",
		"germany", "greece", "hungary", "iceland", "ireland", "italy", "kosovo", "latvia",
		"liechtenstein", "lithuania", "luxembourg", "malta", "moldova", "monaco",
		"montenegro", "netherlands", "north_macedonia", "norway", "poland", "portugal",
		"romania", "russia", "san_marino", "serbia", "slovakia", "slovenia", "spain",
		"sweden", "switzerland", "ukraine", "united_kingdom", "vatican_city",
	}},
	{"Oceania", []string{
		"australia", "fiji", "kiribati", "marshall_islands", "micronesia", "nauru",
		"new_zealand", "palau", "papua_new_guinea", "samoa", "solomon_islands", "tonga",
		"tuvalu", "vanuatu",
	}},
}
