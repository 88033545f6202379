package childproc

import (
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"
)

func setLaunchWait(t *testing.T, d time.Duration) {
	old := launchWait
	launchWait = d
	t.Cleanup(func() { launchWait = old })
}

// A child starts only once the window's requests in flight have ended
// (their pipes are then open already, and Isolate marks them).
func TestLaunchWaitsForTheRequestsInFlight(t *testing.T) {
	setLaunchWait(t, 10*time.Second)
	entered, release := make(chan struct{}), make(chan struct{})
	var answered atomic.Bool
	h := Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(entered)
		<-release
		answered.Store(true)
	}))
	go h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/", nil))
	<-entered

	sawAnswered := make(chan bool)
	go func() { _ = Launch(func() error { sawAnswered <- answered.Load(); return nil }) }()
	time.Sleep(50 * time.Millisecond)
	close(release)
	if !<-sawAnswered {
		t.Fatal("the child started while a request was still being answered")
	}
}

// While a child starts, no request opens its response.
func TestRequestsWaitWhileAChildStarts(t *testing.T) {
	starting, release := make(chan struct{}), make(chan struct{})
	var started atomic.Bool
	go func() {
		_ = Launch(func() error { close(starting); <-release; started.Store(true); return nil })
	}()
	<-starting
	sawStarted := make(chan bool)
	h := Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { sawStarted <- started.Load() }))
	go h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/", nil))
	time.Sleep(50 * time.Millisecond)
	close(release)
	if !<-sawStarted {
		t.Fatal("a request was answered while a child was being started")
	}
}

// A response the window reads slowly cannot hold a child back for long.
func TestLaunchGoesAheadAfterItsWait(t *testing.T) {
	setLaunchWait(t, 20*time.Millisecond)
	entered, release := make(chan struct{}), make(chan struct{})
	defer close(release)
	h := Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { close(entered); <-release }))
	go h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/", nil))
	<-entered
	ran := false
	if err := Launch(func() error { ran = true; return nil }); err != nil || !ran {
		t.Fatalf("Launch with a request stuck: ran %v, err %v", ran, err)
	}
}
