package usererr

import (
	"maps"
	"slices"
)

// The codes, grouped by where the user meets them. Each has an English
// template in registry below, with {name} where a param goes, and an entry
// errors.<code> with the same placeholders in every UI catalogue (the test
// in this package checks that).
const (
	// A server that did not start (events.ServerProblem).
	ServerStartTimeout      Code = "server.startTimeout"
	ServerConnectionRefused Code = "server.connectionRefused"
	ServerExitedWithStatus  Code = "server.exitedWithStatus"

	// A call to a server.
	CallNoServer         Code = "call.noServer"
	CallServerDisabled   Code = "call.serverDisabled"
	CallServerStarting   Code = "call.serverStarting"
	CallServerNotRunning Code = "call.serverNotRunning"
	CallTimeout          Code = "call.timeout"
	CallCancelled        Code = "call.cancelled"
	CallNoLogging        Code = "call.noLogging"

	// What an MCP Apps view asks of the app (MCPPool.CallToolFromView).
	ViewGone          Code = "view.gone"
	ViewNoSuchTool    Code = "view.noSuchTool"
	ViewToolNotForApp Code = "view.toolNotForApp"
	// The chat's approval policies answer a view's call in a conversation.
	ViewNeedsApproval    Code = "view.needsApproval"
	ViewDeclinedByPolicy Code = "view.declinedByPolicy"
	// An MCP-UI remote-DOM resource, which is not rendered.

	// A chat turn the user starts (ChatService).
	ChatBusy            Code = "chat.busy"
	ChatNoModel         Code = "chat.noModel"
	ChatEmptyMessage    Code = "chat.emptyMessage"
	ChatNoImages        Code = "chat.noImages"
	ChatNoAttachment    Code = "chat.noAttachment"
	ChatNothingToAnswer Code = "chat.nothingToAnswer"
	ChatRetryNotFailed  Code = "chat.retryNotFailed"
	ChatRetryNotLatest  Code = "chat.retryNotLatest"

	// The server form (MCPPool.SaveServer) beyond what a config file checks.
	FormDuplicateID       Code = "form.duplicateId"
	FormPairNameRequired  Code = "form.pairNameRequired"
	FormPairGivenTwice    Code = "form.pairGivenTwice"
	FormPairNothingToKeep Code = "form.pairNothingToKeep"
	FormBadTransport      Code = "form.badTransport"

	// The provider form (providers.FieldError).
	ProviderNameRequired   Code = "provider.nameRequired"
	ProviderNameTooLong    Code = "provider.nameTooLong"
	ProviderNameTaken      Code = "provider.nameTaken"
	ProviderURLRequired    Code = "provider.baseUrlRequired"
	ProviderURLTooLong     Code = "provider.baseUrlTooLong"
	ProviderURLInvalid     Code = "provider.baseUrlInvalid"
	ProviderURLScheme      Code = "provider.baseUrlScheme"
	ProviderURLNoHost      Code = "provider.baseUrlNoHost"
	ProviderURLUserinfo    Code = "provider.baseUrlUserinfo"
	ProviderURLQueryKey    Code = "provider.baseUrlQueryKey"
	ProviderKeyEnvInvalid  Code = "provider.keyEnvInvalid"
	ProviderTooManyHeaders Code = "provider.tooManyHeaders"
	ProviderBadHeaderName  Code = "provider.badHeaderName"
	ProviderSecretHeader   Code = "provider.secretHeader"
	ProviderHeaderBreak    Code = "provider.headerLineBreak"
	ProviderModelRequired  Code = "provider.modelRequired"
	ProviderModelTooLong   Code = "provider.modelTooLong"

	// The OS keychain.
	KeychainUnavailable     Code = "keychain.unavailable"
	KeychainUnavailableKeep Code = "keychain.unavailableRemove"
	KeychainStoreFailed     Code = "keychain.storeFailed"
	KeychainRemoveFailed    Code = "keychain.removeFailed"
	KeychainNone            Code = "keychain.none"
	KeychainStoreSecret     Code = "keychain.storeSecretFailed"

	// Files the user opens or saves.
	FileNotFound     Code = "file.notFound"
	FileNotAllowed   Code = "file.notAllowed"
	FileIsFolder     Code = "file.isFolder"
	FileNotRegular   Code = "file.notRegular"
	FileTooLarge     Code = "file.tooLarge"
	FileReadFailed   Code = "file.readFailed"
	FileSaveFailed   Code = "file.saveFailed"
	ImportGone       Code = "import.previewGone"
	ImportHasErrors  Code = "import.entryHasMistakes"
	ImportNoSuchItem Code = "import.noSuchEntry"

	// A configuration file's problems (mcpconfig.Error), shown beside
	// file:line:col. {kind} is one of object, array, string, boolean,
	// null, number, nothing.
	ConfigCommentNotClosed     Code = "config.commentNotClosed"
	ConfigMoreProblems         Code = "config.moreProblems"
	ConfigNoServers            Code = "config.noServers"
	ConfigRootNotObject        Code = "config.rootNotObject"
	ConfigServersNotObject     Code = "config.serversNotObject"
	ConfigTooManyServers       Code = "config.tooManyServers"
	ConfigServerTwice          Code = "config.serverTwice"
	ConfigServerNotObject      Code = "config.serverNotObject"
	ConfigKeyTwice             Code = "config.keyTwice"
	ConfigNotString            Code = "config.notString"
	ConfigNotStringArray       Code = "config.notStringArray"
	ConfigItemNotString        Code = "config.itemNotString"
	ConfigNotStringMap         Code = "config.notStringMap"
	ConfigValueNotString       Code = "config.valueNotString"
	ConfigNotBoolean           Code = "config.notBoolean"
	ConfigNumberTooLarge       Code = "config.numberTooLarge"
	ConfigNotWholeNumber       Code = "config.notWholeNumber"
	ConfigNotNumber            Code = "config.notNumber"
	ConfigBadID                Code = "config.badId"
	ConfigBadType              Code = "config.badType"
	ConfigCommandAndURL        Code = "config.commandAndUrl"
	ConfigNoCommand            Code = "config.noCommand"
	ConfigNoURL                Code = "config.noUrl"
	ConfigBadURL               Code = "config.badUrl"
	ConfigURLUnparsable        Code = "config.urlUnparsable"
	ConfigNulInCommand         Code = "config.nulInCommand"
	ConfigNulInArg             Code = "config.nulInArg"
	ConfigBadEnvName           Code = "config.badEnvName"
	ConfigNulInEnv             Code = "config.nulInEnv"
	ConfigBadHeaderName        Code = "config.badHeaderName"
	ConfigHeaderLineBreak      Code = "config.headerLineBreak"
	ConfigTimeoutNegative      Code = "config.timeoutNegative"
	ConfigTimeoutTooLarge      Code = "config.timeoutTooLarge"
	ConfigConcurrencyNeg       Code = "config.concurrencyNegative"
	ConfigMessageSizeRange     Code = "config.messageSizeRange"
	ConfigEmptyToolName        Code = "config.emptyToolName"
	ConfigRootNotAbsolute      Code = "config.rootNotAbsolute"
	ConfigBadProtocolVersion   Code = "config.badProtocolVersion"
	ConfigBadAuth              Code = "config.badAuth"
	ConfigBadOAuthKey          Code = "config.badOAuthKey"
	ConfigBadOAuthMetadataURL  Code = "config.badOAuthMetadataUrl"
	ConfigOAuthSecretWithoutID Code = "config.oauthSecretWithoutId"
	ConfigUnknownField         Code = "config.unknownField"
)

// registry holds every code's English template.
var registry = map[Code]string{
	ServerStartTimeout:      `the server did not answer "initialize" within {timeout}`,
	ServerConnectionRefused: `nothing answers at {url}: the connection was refused`,
	ServerExitedWithStatus:  `the program exited with status {status} before it answered`,

	CallNoServer:         `no server with id "{server}"`,
	CallServerDisabled:   `server "{server}" is turned off; turn it on first`,
	CallServerStarting:   `server "{server}" is starting; try again in a moment`,
	CallServerNotRunning: `server "{server}" is not running; see its error on the Servers screen`,
	CallTimeout:          `server "{server}" did not answer within {timeout} (the limit restarts with each progress notification)`,
	CallCancelled:        `call cancelled`,
	CallNoLogging:        `server "{server}" does not send log messages`,

	ViewGone:             `this view is no longer shown`,
	ViewNoSuchTool:       `the view asked for tool "{tool}", which server "{server}" does not offer`,
	ViewToolNotForApp:    `the view asked for tool "{tool}" of server "{server}", which the server does not offer to views (its visibility lacks "app")`,
	ViewNeedsApproval:    `the view's call of "{tool}" on server "{server}" needs your approval`,
	ViewDeclinedByPolicy: `your approval policy refuses "{tool}" of server "{server}" without asking (see Tool approvals in Settings)`,

	ChatBusy:            `a reply is still running in this conversation; stop it or wait for it to finish`,
	ChatNoModel:         `no model chosen and no default model; pick a model, or set a default in Settings → Providers`,
	ChatEmptyMessage:    `the message is empty`,
	ChatNoImages:        `{model} does not take images: remove the image, or pick a model that sees images`,
	ChatNoAttachment:    `the attached file "{name}" is no longer stored: attach it again`,
	ChatNothingToAnswer: `the conversation has no message of yours to answer`,
	ChatRetryNotFailed:  `the call is {status}; only failed, timed-out or cancelled calls can be retried`,
	ChatRetryNotLatest:  `only calls of the latest reply can be retried`,

	FormDuplicateID:       `a server with id "{server}" already exists`,
	FormPairNameRequired:  `{kind}: a name is required`,
	FormPairGivenTwice:    `{kind} "{name}": given twice`,
	FormPairNothingToKeep: `{kind} "{name}": no stored value to keep; enter a value`,
	FormBadTransport:      `server "{server}": field "type": must be stdio, http or sse, not "{type}"`,

	ProviderNameRequired:   `Name is required`,
	ProviderNameTooLong:    `Name is longer than {max} characters`,
	ProviderNameTaken:      `Name: another provider is already called "{name}"`,
	ProviderURLRequired:    `Base URL is required`,
	ProviderURLTooLong:     `Base URL is longer than {max} characters`,
	ProviderURLInvalid:     `Base URL "{url}" does not parse`,
	ProviderURLScheme:      `Base URL "{url}" must start with http:// or https://`,
	ProviderURLNoHost:      `Base URL "{url}" has no host`,
	ProviderURLUserinfo:    `Base URL must not contain a user name or password; put the key under API key instead`,
	ProviderURLQueryKey:    `Base URL must not carry a key in its query ("{name}"); put the key under API key instead`,
	ProviderKeyEnvInvalid:  `Key from environment variable: "{name}" is not a variable name (letters, digits and _, not starting with a digit)`,
	ProviderTooManyHeaders: `Headers: at most {max}`,
	ProviderBadHeaderName:  `Headers: "{name}" is not a header name`,
	ProviderSecretHeader:   `Headers: "{name}" looks like it carries a secret; headers are stored unencrypted, so put the key under API key instead`,
	ProviderHeaderBreak:    `Headers: the value of "{name}" has a line break`,
	ProviderModelRequired:  `Model name is required`,
	ProviderModelTooLong:   `Model name is longer than {max} characters`,

	KeychainUnavailable:     `The OS keychain is unavailable. Set the key in an environment variable and enter its name under 'Key from environment variable' instead.`,
	KeychainUnavailableKeep: `The OS keychain is unavailable, so the stored key could not be removed. Try again when the keychain is available.`,
	KeychainStoreFailed:     `the API key could not be stored in the OS keychain`,
	KeychainRemoveFailed:    `the API key could not be removed from the OS keychain`,
	KeychainNone:            `no keychain is available`,
	KeychainStoreSecret:     `{entry} could not be stored in the OS keychain ({reason}); untick "Keychain" beside it to keep it in the config file in plain text instead`,

	FileNotFound:     `{path} does not exist`,
	FileNotAllowed:   `{path} may not be opened: permission denied`,
	FileIsFolder:     `{path} is a folder, not a config file`,
	FileNotRegular:   `{path} is not a regular file`,
	FileTooLarge:     `{path} is {size} MB: too large for an MCP config file`,
	FileReadFailed:   `{path} could not be read: {reason}`,
	FileSaveFailed:   `{path} could not be saved: {reason}`,
	ImportGone:       `this import preview is no longer available (it was imported already, or too many files were previewed since): open the file again`,
	ImportHasErrors:  `server "{server}" has mistakes (see the preview) and cannot be imported; fix the file and open it again`,
	ImportNoSuchItem: `the file has no server "{server}"`,

	ConfigCommentNotClosed:     `comment is not closed: add */ to end it`,
	ConfigMoreProblems:         `more problems not shown; fix the ones above first`,
	ConfigNoServers:            `no MCP servers found: expected a "mcpServers" object (Claude Desktop, Cursor, Windsurf, Cline, MCP Desk) or a "servers" object (VS Code)`,
	ConfigRootNotObject:        `the file must hold one JSON object with an "mcpServers" object in it, not {kind}`,
	ConfigServersNotObject:     `must be an object that maps each server id to its settings, not {kind}`,
	ConfigTooManyServers:       `holds {count} servers; import at most {max} at a time (split the file)`,
	ConfigServerTwice:          `this server id is used twice (first at {first}); server ids must be unique`,
	ConfigServerNotObject:      `must be an object with "command" (a local program) or "url" (a remote server), not {kind}`,
	ConfigKeyTwice:             `key "{key}" appears twice (first at {first}); keep one`,
	ConfigNotString:            `must be a string, not {kind}`,
	ConfigNotStringArray:       `must be an array of strings such as ["-y", "some-package"], not {kind}`,
	ConfigItemNotString:        `item {item} must be a string, not {kind}`,
	ConfigNotStringMap:         `must be an object of names and string values, not {kind}`,
	ConfigValueNotString:       `the value of "{name}" must be a string, not {kind}`,
	ConfigNotBoolean:           `must be true or false, not {kind}`,
	ConfigNumberTooLarge:       `{value} is too large`,
	ConfigNotWholeNumber:       `must be a whole number, not {value}`,
	ConfigNotNumber:            `must be a number, not {kind}`,
	ConfigBadID:                `invalid server id: use 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit`,
	ConfigBadType:              `must be stdio, http or sse, not "{type}"`,
	ConfigCommandAndURL:        `set either "command" (to start a local program) or "url" (to connect to a remote server), not both`,
	ConfigNoCommand:            `missing: a stdio server needs "command", the program to start`,
	ConfigNoURL:                `missing: "type" is "{type}", so the server needs "url", the address to connect to`,
	ConfigBadURL:               `must be an http:// or https:// URL with a host, such as "https://example.com/mcp", not "{url}"`,
	ConfigURLUnparsable:        `must be an http:// or https:// URL with a host`,
	ConfigNulInCommand:         `must not contain a NUL character`,
	ConfigNulInArg:             `item {item} must not contain a NUL character`,
	ConfigBadEnvName:           `variable name "{name}" is not valid: it must not be empty or contain '='`,
	ConfigNulInEnv:             `the value of "{name}" must not contain a NUL character`,
	ConfigBadHeaderName:        `"{name}" is not a valid HTTP header name (letters, digits and !#$%&'*+-.^_|~ only)`,
	ConfigHeaderLineBreak:      `the value of header "{name}" must not contain line breaks`,
	ConfigTimeoutNegative:      `must not be negative, not {value} (leave it out for the default, {default})`,
	ConfigTimeoutTooLarge:      `must be at most {max} (about 24 days), not {value}`,
	ConfigConcurrencyNeg:       `must not be negative, not {value} (leave it out for the default, {default})`,
	ConfigMessageSizeRange:     `must be a size in bytes from {min} (64 KB) to {max} (1 GB), not {value}`,
	ConfigEmptyToolName:        `item {item} is empty; list tool names`,
	ConfigRootNotAbsolute:      `item {item} must be an absolute folder path, not "{root}"`,
	ConfigBadProtocolVersion:   `must be a protocol revision such as "2025-11-25", not "{value}"`,
	ConfigBadAuth:              `must be "oauth" or "none", not "{value}"`,
	ConfigBadOAuthKey:          `"{name}" is not an OAuth setting (clientId, clientSecret, scopes, clientMetadataUrl)`,
	ConfigBadOAuthMetadataURL:  `clientMetadataUrl must be an https:// URL, not "{value}"`,
	ConfigOAuthSecretWithoutID: `a clientSecret needs its clientId`,
	ConfigUnknownField:         `unknown field; did you mean "{suggestion}"? (names are case-sensitive)`,
}

// Codes returns every registered code, sorted.
func Codes() []Code {
	return slices.Sorted(maps.Keys(registry))
}
