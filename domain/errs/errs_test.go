package errs

import "testing"

func TestAnErrorOfANestedPropertyIsNamedUnderItsParentAndTheOriginalStaysAsItWas(t *testing.T) {
	shared := Invalidf("bin location 7 does not exist").On("binLocation").Breaks("unknown_bin_location")
	got := Within("destination", shared)
	if PropertyOf(got) != "destination.binLocation" || CodeOf(got) != "unknown_bin_location" || got.Error() != shared.Message {
		t.Errorf("got %q, %q, %v", PropertyOf(got), CodeOf(got), got)
	}
	if shared.Property != "binLocation" {
		t.Errorf("the shared error changed to %q", shared.Property)
	}
	if PropertyOf(Within("source", Invalidf("no property"))) != "source" {
		t.Error("an error of no property is not named by its parent")
	}
	if PropertyOf(Within("", shared)) != "binLocation" {
		t.Error("no parent changed the property")
	}
}

func TestAValidationFailureOfOnePropertyIsAboutIt(t *testing.T) {
	if p := InvalidFields(FieldError{Property: "quantity", Message: "must be positive"}).Property; p != "quantity" {
		t.Errorf("one field: property %q", p)
	}
	if p := InvalidFields(FieldError{Property: "a"}, FieldError{Property: "b"}).Property; p != "" {
		t.Errorf("two fields: property %q, want none", p)
	}
}
