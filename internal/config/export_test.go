package config

// Names is every setting's variable, in the table's order.
func Names() []string {
	var names []string
	for _, s := range settings() {
		names = append(names, s.name)
	}
	return names
}

// Secrets is the variables whose values no message may show.
func Secrets() []string {
	var names []string
	for _, s := range settings() {
		if s.secret {
			names = append(names, s.name)
		}
	}
	return names
}
