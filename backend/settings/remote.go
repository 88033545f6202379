package settings

import (
	"fmt"

	"mcpdesk/backend/remotecontent"
)

// Remote images (issue 11): the window shows a placeholder instead of any
// remote image; these methods let the user allow a host for a conversation
// or a server, list and revoke what was allowed, and fetch an allowed image
// through Go, so the webview itself never contacts a remote host.

// WithRemoteImages sets the grants and fetcher behind the remote-image
// methods; without it New builds one over the service's store.
func WithRemoteImages(im *remotecontent.Images) Option { return func(s *Service) { s.images = im } }

// RemoteImageGrants lists the hosts allowed to show images, newest first,
// each with the conversation or server it is allowed for.
func (s *Service) RemoteImageGrants() ([]remotecontent.Grant, error) {
	g, err := s.images.List(s.ctx)
	if err != nil {
		return nil, fmt.Errorf("list remote image hosts: %w", err)
	}
	return g, nil
}

// AllowRemoteImages lets images from host load in scope until revoked.
func (s *Service) AllowRemoteImages(scope remotecontent.Scope, host string) (remotecontent.Grant, error) {
	return s.images.Allow(s.ctx, scope, host)
}

// RevokeRemoteImages stops images from host loading in scope.
func (s *Service) RevokeRemoteImages(scope remotecontent.Scope, host string) error {
	return s.images.Revoke(s.ctx, scope, host)
}

// FetchRemoteImage fetches the image at url for scope, whose host must be
// allowed there, and returns it as a data: URL (at most 10 MB of image).
func (s *Service) FetchRemoteImage(scope remotecontent.Scope, url string) (string, error) {
	return s.images.Fetch(s.ctx, scope, url)
}
