package search

// Waiting reports how many searches wait on the in-flight search of query
// (no filters).
func (s *Service) Waiting(query string) int {
	s.init()
	s.mu.Lock()
	defer s.mu.Unlock()
	if f, ok := s.flights[s.Key(Request{Query: NormalizeQuery(query)})]; ok {
		return f.waiters
	}
	return 0
}

// InFlight reports whether a search of query (no filters) is in flight in
// this process.
func (s *Service) InFlight(query string) bool {
	s.init()
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.flights[s.Key(Request{Query: NormalizeQuery(query)})]
	return ok
}
