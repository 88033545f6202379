package remotecontent

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"time"

	"mcpdesk/backend/store"
)

// Settings is where grants are kept: the settings table (*store.Store).
type Settings interface {
	GetSetting(ctx context.Context, key string, into any) (found bool, err error)
	PutSetting(ctx context.Context, key string, v any) error
}

// Conversations looks conversations up, to name them and to forget the
// grants of deleted ones (*store.Store).
type Conversations interface {
	GetConversation(ctx context.Context, id int64) (store.Conversation, error)
}

// Options configure Images. Zero values take the defaults.
type Options struct {
	Logger *slog.Logger
	// MaxBytes caps one image (default DefaultMaxBytes).
	MaxBytes int64
	// Timeout bounds one fetch, redirects included (default 20 s).
	Timeout time.Duration
	// MaxRedirects is how many redirects a fetch follows (default 3).
	MaxRedirects int
	// Transport replaces the HTTP transport (tests).
	Transport http.RoundTripper
	// Parallel is how many fetches may run at once (default 4).
	Parallel int
}

// DefaultMaxBytes is the largest image fetched by default: 10 MB.
const DefaultMaxBytes = 10 << 20

// Images keeps the grants and fetches allowed images. It is safe for
// concurrent use.
type Images struct {
	st     Settings
	convs  Conversations
	logger *slog.Logger
	opts   Options
	client *http.Client
	slots  chan struct{}
	mu     sync.Mutex // serialises read-modify-write of the stored grants
}

// New returns Images keeping grants in st; convs may be nil (conversation
// grants are then listed without titles and never pruned).
func New(st Settings, convs Conversations, o Options) *Images {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.MaxBytes <= 0 {
		o.MaxBytes = DefaultMaxBytes
	}
	if o.Timeout <= 0 {
		o.Timeout = 20 * time.Second
	}
	if o.MaxRedirects <= 0 {
		o.MaxRedirects = 3
	}
	if o.Parallel <= 0 {
		o.Parallel = 4
	}
	if o.Transport == nil {
		o.Transport = newTransport()
	}
	return &Images{
		st: st, convs: convs, logger: o.Logger, opts: o,
		slots: make(chan struct{}, o.Parallel),
	}
}

// grantDoc is the stored form of the grants.
type grantDoc struct {
	Grants []storedGrant `json:"grants"`
}

type storedGrant struct {
	Kind      string    `json:"kind"`
	ID        string    `json:"id"`
	Host      string    `json:"host"`
	GrantedAt time.Time `json:"grantedAt"`
}

func (g storedGrant) scope() Scope { return Scope{Kind: g.Kind, ID: g.ID} }

func (im *Images) load(ctx context.Context) (grantDoc, error) {
	var doc grantDoc
	if _, err := im.st.GetSetting(ctx, grantsKey, &doc); err != nil {
		return grantDoc{}, fmt.Errorf("read remote image grants: %w", err)
	}
	return doc, nil
}

// edit changes the stored grants under the lock; edit reports whether it
// changed anything worth saving.
func (im *Images) edit(ctx context.Context, edit func(*grantDoc) (bool, error)) error {
	im.mu.Lock()
	defer im.mu.Unlock()
	doc, err := im.load(ctx)
	if err != nil {
		return err
	}
	changed, err := edit(&doc)
	if err != nil || !changed {
		return err
	}
	if err := im.st.PutSetting(ctx, grantsKey, doc); err != nil {
		return fmt.Errorf("save remote image grants: %w", err)
	}
	return nil
}

// List returns every grant, newest first, each with its scope's label.
// Grants of conversations that no longer exist are forgotten on the way.
func (im *Images) List(ctx context.Context) ([]Grant, error) {
	doc, err := im.load(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]Grant, 0, len(doc.Grants))
	var gone []Scope
	titles := map[string]string{}
	for _, g := range doc.Grants {
		label := g.ID
		if g.Kind == KindConversation && im.convs != nil {
			title, ok, err := im.conversationTitle(ctx, g.scope(), titles)
			if err != nil {
				return nil, err
			}
			if !ok {
				gone = append(gone, g.scope())
				continue
			}
			label = title
		}
		out = append(out, Grant{Scope: g.scope(), Host: g.Host, Label: label, GrantedAt: g.GrantedAt})
	}
	if len(gone) > 0 {
		err := im.edit(ctx, func(d *grantDoc) (bool, error) {
			d.Grants = slices.DeleteFunc(d.Grants, func(g storedGrant) bool { return slices.Contains(gone, g.scope()) })
			return true, nil
		})
		if err != nil {
			im.logger.Warn("forget grants of deleted conversations", "err", err)
		}
	}
	slices.SortStableFunc(out, func(a, b Grant) int { return b.GrantedAt.Compare(a.GrantedAt) })
	return out, nil
}

// conversationTitle looks a conversation's title up (cached in titles);
// ok is false when the conversation does not exist.
func (im *Images) conversationTitle(ctx context.Context, s Scope, titles map[string]string) (string, bool, error) {
	if t, ok := titles[s.ID]; ok {
		return t, true, nil
	}
	id, err := s.conversationID()
	if err != nil {
		return "", false, nil
	}
	c, err := im.convs.GetConversation(ctx, id)
	if errors.Is(err, store.ErrConversationNotFound) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("list remote image grants: %w", err)
	}
	titles[s.ID] = c.Title
	return c.Title, true, nil
}

// Allow lets images from host load in scope until revoked, and returns the
// grant. Allowing a host twice keeps the first grant. A conversation scope
// must name an existing conversation.
func (im *Images) Allow(ctx context.Context, scope Scope, host string) (Grant, error) {
	h, err := NormalizeHost(host)
	if err != nil {
		return Grant{}, fmt.Errorf("allow remote images: %w", err)
	}
	if err := scope.Validate(); err != nil {
		return Grant{}, fmt.Errorf("allow remote images: %w", err)
	}
	label := scope.ID
	if scope.Kind == KindConversation && im.convs != nil {
		title, ok, err := im.conversationTitle(ctx, scope, map[string]string{})
		if err != nil {
			return Grant{}, err
		}
		if !ok {
			return Grant{}, fmt.Errorf("allow remote images: %s does not exist", scope)
		}
		label = title
	}
	g := storedGrant{Kind: scope.Kind, ID: scope.ID, Host: h, GrantedAt: time.Now().UTC().Truncate(time.Second)}
	err = im.edit(ctx, func(d *grantDoc) (bool, error) {
		if i := slices.IndexFunc(d.Grants, func(x storedGrant) bool { return x.scope() == scope && x.Host == h }); i >= 0 {
			g = d.Grants[i]
			return false, nil
		}
		if len(d.Grants) >= maxGrants {
			return false, fmt.Errorf("allow remote images: %d hosts are allowed already, the most kept; revoke some in Settings → Remote images", maxGrants)
		}
		d.Grants = append(d.Grants, g)
		return true, nil
	})
	if err != nil {
		return Grant{}, err
	}
	im.logger.Info("remote images allowed", "scope", scope.Kind, "host", h)
	return Grant{Scope: scope, Host: h, Label: label, GrantedAt: g.GrantedAt}, nil
}

// Revoke forgets the grant of host in scope; revoking one that is not
// there is not an error.
func (im *Images) Revoke(ctx context.Context, scope Scope, host string) error {
	h, err := NormalizeHost(host)
	if err != nil {
		return fmt.Errorf("revoke remote images: %w", err)
	}
	if err := scope.Validate(); err != nil {
		return fmt.Errorf("revoke remote images: %w", err)
	}
	return im.edit(ctx, func(d *grantDoc) (bool, error) {
		n := len(d.Grants)
		d.Grants = slices.DeleteFunc(d.Grants, func(x storedGrant) bool { return x.scope() == scope && x.Host == h })
		return len(d.Grants) != n, nil
	})
}

// Allowed reports whether images from host may load in scope.
func (im *Images) Allowed(ctx context.Context, scope Scope, host string) (bool, error) {
	h, err := NormalizeHost(host)
	if err != nil {
		return false, err
	}
	doc, err := im.load(ctx)
	if err != nil {
		return false, err
	}
	return slices.ContainsFunc(doc.Grants, func(x storedGrant) bool { return x.scope() == scope && x.Host == h }), nil
}

// conversationKey is a conversation scope's id.
func conversationKey(id int64) string { return strconv.FormatInt(id, 10) }

// ConversationScope returns the scope of conversation id.
func ConversationScope(id int64) Scope { return Scope{Kind: KindConversation, ID: conversationKey(id)} }

// ServerScope returns the scope of server id.
func ServerScope(id string) Scope { return Scope{Kind: KindServer, ID: id} }
