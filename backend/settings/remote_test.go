package settings

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"mcpdesk/backend/remotecontent"
	"mcpdesk/backend/store"
)

// TestRemoteImageMethods checks the bound methods over a real store: a
// host is refused until allowed for the conversation, listed with the
// conversation's title, fetched once allowed, and refused again once
// revoked.
func TestRemoteImageMethods(t *testing.T) {
	s, st, _ := newTest(t)
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "image/gif")
		_, _ = w.Write([]byte("GIF89a\x01\x00\x01\x00\x00\x00\x00,"))
	}))
	defer srv.Close()
	u, _ := url.Parse(srv.URL)
	c, err := st.CreateConversation(context.Background(), "Charts", store.ConversationSettings{Provider: "p", Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	scope := remotecontent.ConversationScope(c.ID)
	img := srv.URL + "/chart.gif?d=secret"

	if _, err := s.FetchRemoteImage(scope, img); err == nil || !strings.Contains(err.Error(), "not allowed") {
		t.Fatalf("FetchRemoteImage before allowing = %v, want refused", err)
	}
	if g, err := s.AllowRemoteImages(scope, u.Hostname()); err != nil || g.Label != "Charts" || g.Host != "127.0.0.1" {
		t.Fatalf("AllowRemoteImages = %+v, %v", g, err)
	}
	grants, err := s.RemoteImageGrants()
	if err != nil || len(grants) != 1 || grants[0].Scope != scope {
		t.Fatalf("RemoteImageGrants = %+v, %v", grants, err)
	}
	data, err := s.FetchRemoteImage(scope, img)
	if err != nil || !strings.HasPrefix(data, "data:image/gif;base64,") {
		t.Fatalf("FetchRemoteImage = %.40q, %v", data, err)
	}
	if err := s.RevokeRemoteImages(scope, u.Hostname()); err != nil {
		t.Fatal(err)
	}
	if _, err := s.FetchRemoteImage(scope, img); err == nil {
		t.Fatal("FetchRemoteImage after revoking succeeded")
	}
	if n := hits.Load(); n != 1 {
		t.Fatalf("the image server got %d requests, want 1", n)
	}
}
