package advice

// AnnotationHierarchy is implemented by a MethodHierarchy that also reads
// the annotations classes and their members carry, so that a Matcher can
// match annotation patterns and @within, @annotation and the like
// statically, as AspectJ does. Annotations are given by type, as field
// descriptors ("Lcom/example/Timed;"), runtime-visible and class-retention
// (RuntimeInvisible) ones alike.
type AnnotationHierarchy interface {
	MethodHierarchy
	// ClassAnnotations returns the annotations of class itself (not its
	// supertypes'), and false if the class is unknown.
	ClassAnnotations(class string) ([]string, bool)
	// MemberAnnotations returns the annotations of the method, constructor
	// or field name with descriptor desc that class declares, and of each
	// of its parameters (params[i] for parameter i; shorter than the
	// parameter list when trailing parameters have none). ok is false if
	// class or the member is unknown.
	MemberAnnotations(class, name, desc string) (anns []string, params [][]string, ok bool)
}

// AnnotationSite is where an annotation bound to an advice formal is read
// at run time, for the static annotation values (MemberAnnotation,
// WithinAnnotation, WithincodeAnnotation): the class and, for a member,
// its name and descriptor ("" for the class itself).
type AnnotationSite struct {
	Class string // internal name
	Name  string // method, "<init>" or field name; "" for the class
	Desc  string // method or field descriptor
}
