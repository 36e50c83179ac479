package mail

// TLSPolicy is the STARTTLS policy in force ("implicit" for smtps://).
func (s *SMTP) TLSPolicy() string {
	if s.implicit {
		return "implicit"
	}
	return s.tls
}
