package stock

// Operation is one change a batch makes to stock. Declare adds what it needs
// loaded to the batch's scope; Run applies it to the working set loaded for
// that scope, and is called through WorkingSet.Apply, which takes back
// everything a failing Run did. A new kind of operation is one type with
// these two methods (see Change for the simplest).
type Operation interface {
	Declare(s *Scope)
	Run(ws *WorkingSet, ref Reference) error
}
