package main

import (
	"testing"

	"github.com/weft-aop/weft/advice"
	"github.com/weft-aop/weft/pointcut"
)

// weft check lists around advice with its return type (it said "after").
func TestCheckAroundHeader(t *testing.T) {
	ai := pointcut.AdviceInfo{Formals: []string{"int x"},
		Advice: &advice.Advice{Kind: advice.Around, AroundType: "I", File: "t.weft", Line: 3}}
	if got, want := adviceHeader(ai), "t.weft:3 int around(int x)"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	ai.Advice.AroundType = "Ljava/lang/Object;"
	if got, want := adviceHeader(ai), "t.weft:3 java.lang.Object around(int x)"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
