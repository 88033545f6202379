package mcppool

import (
	"context"
	"fmt"

	"mcpdesk/backend/store"
)

// Saved requests (the Tools tab's "Save request"): named tool calls kept
// per server in the store given with WithSavedRequests. The pool itself
// never reads them.

// SavedRequestStore keeps saved tool requests; *store.Store is one.
type SavedRequestStore interface {
	SavedRequests(ctx context.Context, server string) ([]store.SavedRequest, error)
	SaveRequest(ctx context.Context, r store.SavedRequest) (store.SavedRequest, error)
	DeleteSavedRequest(ctx context.Context, id int64) error
}

// WithSavedRequests lets the Tools tab keep requests in st.
func WithSavedRequests(st SavedRequestStore) ServiceOption {
	return func(s *MCPPool) { s.saved = st }
}

// errNoSavedRequests is returned when the service was built without a store.
var errNoSavedRequests = fmt.Errorf("saved requests are not available here")

// ListSavedRequests returns a server's saved tool requests, by name.
func (s *MCPPool) ListSavedRequests(server string) ([]store.SavedRequest, error) {
	if s.saved == nil {
		return nil, errNoSavedRequests
	}
	list, err := s.saved.SavedRequests(s.pool.context(), server)
	return nonNilSlice(list), err
}

// SaveRequest stores a tool request (ID 0 adds, else updates: rename,
// new description or arguments) and returns it as stored.
func (s *MCPPool) SaveRequest(r store.SavedRequest) (store.SavedRequest, error) {
	if s.saved == nil {
		return store.SavedRequest{}, errNoSavedRequests
	}
	return s.saved.SaveRequest(s.pool.context(), r)
}

// DeleteSavedRequest removes a saved request.
func (s *MCPPool) DeleteSavedRequest(id int64) error {
	if s.saved == nil {
		return errNoSavedRequests
	}
	return s.saved.DeleteSavedRequest(s.pool.context(), id)
}
