package main

import (
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestTheWarmServerRunsOnOneP(t *testing.T) {
	before := runtime.GOMAXPROCS(0)
	t.Setenv("GOMAXPROCS", "")
	restore := oneProc()
	require.Equal(t, 1, runtime.GOMAXPROCS(0))
	restore()
	require.Equal(t, before, runtime.GOMAXPROCS(0))
}

func TestTheWarmServerKeepsTheGOMAXPROCSItIsGiven(t *testing.T) {
	before := runtime.GOMAXPROCS(0)
	t.Setenv("GOMAXPROCS", "3")
	restore := oneProc()
	require.Equal(t, before, runtime.GOMAXPROCS(0))
	restore()
	require.Equal(t, before, runtime.GOMAXPROCS(0))
}
