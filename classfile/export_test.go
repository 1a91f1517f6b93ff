package classfile

// FormsClass is formsClass, for the external tests (javap_test.go).
var FormsClass = formsClass
