export namespace chat {
	
	export class ApprovalDecision {
	    action: 'run' | 'cancel';
	    policy: 'once' | 'conversation' | 'always' | 'server' | 'never' | '';
	    arguments?: any;
	
	    static createFrom(source: any = {}) {
	        return new ApprovalDecision(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.action = source["action"];
	        this.policy = source["policy"];
	        this.arguments = source["arguments"];
	    }
	}
	export class SuspendedPolicy {
	    kind: 'always' | 'conversation' | 'server';
	    server: string;
	    tool?: string;
	    conversationId?: number;
	
	    static createFrom(source: any = {}) {
	        return new SuspendedPolicy(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.kind = source["kind"];
	        this.server = source["server"];
	        this.tool = source["tool"];
	        this.conversationId = source["conversationId"];
	    }
	}
	export class ToolRef {
	    server: string;
	    tool: string;
	
	    static createFrom(source: any = {}) {
	        return new ToolRef(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.server = source["server"];
	        this.tool = source["tool"];
	    }
	}
	export class ApprovalPolicies {
	    alwaysAllow: ToolRef[];
	    autoServers: string[];
	    never: ToolRef[];
	    suspended: SuspendedPolicy[];
	
	    static createFrom(source: any = {}) {
	        return new ApprovalPolicies(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.alwaysAllow = this.convertValues(source["alwaysAllow"], ToolRef);
	        this.autoServers = source["autoServers"];
	        this.never = this.convertValues(source["never"], ToolRef);
	        this.suspended = this.convertValues(source["suspended"], SuspendedPolicy);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ChangedTool {
	    tool: string;
	    new?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new ChangedTool(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.tool = source["tool"];
	        this.new = source["new"];
	    }
	}
	export class ChatSettings {
	    maxSteps: number;
	    toolTimeoutMs: number;
	    approvalDefault: 'ask' | 'readOnly';
	    toolSearch: 'auto' | 'on' | 'off';
	
	    static createFrom(source: any = {}) {
	        return new ChatSettings(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.maxSteps = source["maxSteps"];
	        this.toolTimeoutMs = source["toolTimeoutMs"];
	        this.approvalDefault = source["approvalDefault"];
	        this.toolSearch = source["toolSearch"];
	    }
	}
	export class ConversationView {
	    conversation: store.Conversation;
	    messages: store.Message[];
	    running: string;
	    approvals: events.ChatApprovalPayload[];
	    sampling: events.ChatSamplingPayload[];
	
	    static createFrom(source: any = {}) {
	        return new ConversationView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.conversation = this.convertValues(source["conversation"], store.Conversation);
	        this.messages = this.convertValues(source["messages"], store.Message);
	        this.running = source["running"];
	        this.approvals = this.convertValues(source["approvals"], events.ChatApprovalPayload);
	        this.sampling = this.convertValues(source["sampling"], events.ChatSamplingPayload);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class NewConversationInput {
	    title: string;
	    settings: store.ConversationSettings;
	
	    static createFrom(source: any = {}) {
	        return new NewConversationInput(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.title = source["title"];
	        this.settings = this.convertValues(source["settings"], store.ConversationSettings);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class OfferedTool {
	    name: string;
	    server: string;
	    tool: string;
	    title: string;
	    description: string;
	    annotations: events.ToolAnnotations;
	    warnings?: trust.Warning[];
	
	    static createFrom(source: any = {}) {
	        return new OfferedTool(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.server = source["server"];
	        this.tool = source["tool"];
	        this.title = source["title"];
	        this.description = source["description"];
	        this.annotations = this.convertValues(source["annotations"], events.ToolAnnotations);
	        this.warnings = this.convertValues(source["warnings"], trust.Warning);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class SamplingAnswer {
	    approve: boolean;
	    request?: any;
	
	    static createFrom(source: any = {}) {
	        return new SamplingAnswer(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.approve = source["approve"];
	        this.request = source["request"];
	    }
	}
	export class SendRequest {
	    conversationId: number;
	    text: string;
	    attachments: store.Attachment[];
	
	    static createFrom(source: any = {}) {
	        return new SendRequest(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.conversationId = source["conversationId"];
	        this.text = source["text"];
	        this.attachments = this.convertValues(source["attachments"], store.Attachment);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class SendResult {
	    turnId: string;
	    userMessage: store.Message;
	
	    static createFrom(source: any = {}) {
	        return new SendResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.turnId = source["turnId"];
	        this.userMessage = this.convertValues(source["userMessage"], store.Message);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ServerTrust {
	    server: string;
	    identity?: trust.ServerChange;
	    tools: ChangedTool[];
	    suspended: SuspendedPolicy[];
	
	    static createFrom(source: any = {}) {
	        return new ServerTrust(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.server = source["server"];
	        this.identity = this.convertValues(source["identity"], trust.ServerChange);
	        this.tools = this.convertValues(source["tools"], ChangedTool);
	        this.suspended = this.convertValues(source["suspended"], SuspendedPolicy);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class ToolCost {
	    tools: number;
	    tokens: number;
	    searchTokens: number;
	    searching: boolean;
	
	    static createFrom(source: any = {}) {
	        return new ToolCost(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.tools = source["tools"];
	        this.tokens = source["tokens"];
	        this.searchTokens = source["searchTokens"];
	        this.searching = source["searching"];
	    }
	}
	
	export class TrustReport {
	    servers: ServerTrust[];
	
	    static createFrom(source: any = {}) {
	        return new TrustReport(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.servers = this.convertValues(source["servers"], ServerTrust);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace events {
	
	export class ToolAnnotations {
	    title?: string;
	    readOnlyHint?: boolean;
	    destructiveHint?: boolean;
	    idempotentHint?: boolean;
	    openWorldHint?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new ToolAnnotations(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.title = source["title"];
	        this.readOnlyHint = source["readOnlyHint"];
	        this.destructiveHint = source["destructiveHint"];
	        this.idempotentHint = source["idempotentHint"];
	        this.openWorldHint = source["openWorldHint"];
	    }
	}
	export class ChatApprovalPayload {
	    id: string;
	    conversationId: number;
	    turnId: string;
	    messageId: number;
	    callId: string;
	    server: string;
	    tool: string;
	    title?: string;
	    description?: string;
	    annotations: ToolAnnotations;
	    arguments: any;
	    inputSchema: any;
	    definitionHash: string;
	    change?: trust.Change;
	    warnings?: trust.Warning[];
	
	    static createFrom(source: any = {}) {
	        return new ChatApprovalPayload(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.conversationId = source["conversationId"];
	        this.turnId = source["turnId"];
	        this.messageId = source["messageId"];
	        this.callId = source["callId"];
	        this.server = source["server"];
	        this.tool = source["tool"];
	        this.title = source["title"];
	        this.description = source["description"];
	        this.annotations = this.convertValues(source["annotations"], ToolAnnotations);
	        this.arguments = source["arguments"];
	        this.inputSchema = source["inputSchema"];
	        this.definitionHash = source["definitionHash"];
	        this.change = this.convertValues(source["change"], trust.Change);
	        this.warnings = this.convertValues(source["warnings"], trust.Warning);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ChatSamplingPayload {
	    id: string;
	    conversationId: number;
	    server: string;
	    request: any;
	    model: string;
	
	    static createFrom(source: any = {}) {
	        return new ChatSamplingPayload(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.conversationId = source["conversationId"];
	        this.server = source["server"];
	        this.request = source["request"];
	        this.model = source["model"];
	    }
	}
	export class RPCEntry {
	    seq: number;
	    server: string;
	    time: number;
	    direction: string;
	    kind: string;
	    method: string;
	    id?: string;
	    latencyMs?: number;
	    payload: string;
	    truncated?: boolean;
	    dropped?: number;
	    note?: 'cancelledByUser'|'timedOut'|'abandoned'|'noAnswer'|'viewOpened'|'blocked';
	
	    static createFrom(source: any = {}) {
	        return new RPCEntry(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.seq = source["seq"];
	        this.server = source["server"];
	        this.time = source["time"];
	        this.direction = source["direction"];
	        this.kind = source["kind"];
	        this.method = source["method"];
	        this.id = source["id"];
	        this.latencyMs = source["latencyMs"];
	        this.payload = source["payload"];
	        this.truncated = source["truncated"];
	        this.dropped = source["dropped"];
	        this.note = source["note"];
	    }
	}
	export class ServerProblem {
	    code: 'messageTooLarge'|'programNotFound'|'programNotExecutable'|'exitedAtStart'|(string & {});
	    params?: Record<string, unknown>;
	    limit?: number;
	    program?: string;
	
	    static createFrom(source: any = {}) {
	        return new ServerProblem(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.code = source["code"];
	        this.params = source["params"];
	        this.limit = source["limit"];
	        this.program = source["program"];
	    }
	}
	export class SignInStatus {
	    signedIn: boolean;
	    issuer: string;
	    host: string;
	    account: string;
	    scope: string;
	    expiresAt: number;
	    renewable: boolean;
	    client: string;
	
	    static createFrom(source: any = {}) {
	        return new SignInStatus(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.signedIn = source["signedIn"];
	        this.issuer = source["issuer"];
	        this.host = source["host"];
	        this.account = source["account"];
	        this.scope = source["scope"];
	        this.expiresAt = source["expiresAt"];
	        this.renewable = source["renewable"];
	        this.client = source["client"];
	    }
	}
	export class ServerStatusPayload {
	    id: string;
	    state: string;
	    transport: string;
	    protocolVersion: string;
	    serverName: string;
	    serverVersion: string;
	    tools: number;
	    resources: number;
	    prompts: number;
	    canSubscribe?: boolean;
	    error?: string;
	    stderr?: string;
	    attempt?: number;
	    nextRetryMs?: number;
	    problem?: ServerProblem;
	    signIn?: SignInStatus;
	
	    static createFrom(source: any = {}) {
	        return new ServerStatusPayload(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.state = source["state"];
	        this.transport = source["transport"];
	        this.protocolVersion = source["protocolVersion"];
	        this.serverName = source["serverName"];
	        this.serverVersion = source["serverVersion"];
	        this.tools = source["tools"];
	        this.resources = source["resources"];
	        this.prompts = source["prompts"];
	        this.canSubscribe = source["canSubscribe"];
	        this.error = source["error"];
	        this.stderr = source["stderr"];
	        this.attempt = source["attempt"];
	        this.nextRetryMs = source["nextRetryMs"];
	        this.problem = this.convertValues(source["problem"], ServerProblem);
	        this.signIn = this.convertValues(source["signIn"], SignInStatus);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	

}

export namespace importer {
	
	export class Detected {
	    client: 'claude' | 'cursor' | 'vscode' | 'windsurf';
	    path: string;
	    servers: string[];
	    broken: string[];
	    configured: string[];
	    error: string;
	
	    static createFrom(source: any = {}) {
	        return new Detected(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.client = source["client"];
	        this.path = source["path"];
	        this.servers = source["servers"];
	        this.broken = source["broken"];
	        this.configured = source["configured"];
	        this.error = source["error"];
	    }
	}
	export class Preview {
	    token: string;
	    file: string;
	    format: 'cursor' | 'claude' | 'vscode' | 'windsurf' | 'cline' | 'mcpdesk';
	    items: mcpconfig.ServerPreview[];
	
	    static createFrom(source: any = {}) {
	        return new Preview(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.token = source["token"];
	        this.file = source["file"];
	        this.format = source["format"];
	        this.items = this.convertValues(source["items"], mcpconfig.ServerPreview);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Result {
	    added: string[];
	    replaced: string[];
	
	    static createFrom(source: any = {}) {
	        return new Result(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.added = source["added"];
	        this.replaced = source["replaced"];
	    }
	}

}

export namespace mcp {
	
	export class InputRequest {
	    method: string;
	
	    static createFrom(source: any = {}) {
	        return new InputRequest(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.method = source["method"];
	    }
	}
	export class Meta {
	    ProgressToken: any;
	    AdditionalFields: Record<string, any>;
	
	    static createFrom(source: any = {}) {
	        return new Meta(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.ProgressToken = source["ProgressToken"];
	        this.AdditionalFields = source["AdditionalFields"];
	    }
	}
	export class CallToolResult {
	    _meta?: Meta;
	    resultType?: string;
	    inputRequests?: Record<string, InputRequest>;
	    requestState?: string;
	    content: any[];
	    structuredContent?: any;
	    isError?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new CallToolResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this._meta = this.convertValues(source["_meta"], Meta);
	        this.resultType = source["resultType"];
	        this.inputRequests = this.convertValues(source["inputRequests"], InputRequest, true);
	        this.requestState = source["requestState"];
	        this.content = source["content"];
	        this.structuredContent = source["structuredContent"];
	        this.isError = source["isError"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Completion {
	    values: string[];
	    total?: number;
	    hasMore?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new Completion(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.values = source["values"];
	        this.total = source["total"];
	        this.hasMore = source["hasMore"];
	    }
	}
	export class PromptMessage {
	    role: string;
	    content: any;
	
	    static createFrom(source: any = {}) {
	        return new PromptMessage(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.role = source["role"];
	        this.content = source["content"];
	    }
	}
	export class GetPromptResult {
	    _meta?: Meta;
	    resultType?: string;
	    inputRequests?: Record<string, InputRequest>;
	    requestState?: string;
	    description?: string;
	    messages: PromptMessage[];
	
	    static createFrom(source: any = {}) {
	        return new GetPromptResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this._meta = this.convertValues(source["_meta"], Meta);
	        this.resultType = source["resultType"];
	        this.inputRequests = this.convertValues(source["inputRequests"], InputRequest, true);
	        this.requestState = source["requestState"];
	        this.description = source["description"];
	        this.messages = this.convertValues(source["messages"], PromptMessage);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Icon {
	    src: string;
	    mimeType?: string;
	    sizes?: string[];
	    theme?: string;
	
	    static createFrom(source: any = {}) {
	        return new Icon(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.src = source["src"];
	        this.mimeType = source["mimeType"];
	        this.sizes = source["sizes"];
	        this.theme = source["theme"];
	    }
	}
	export class URITemplate {
	
	
	    static createFrom(source: any = {}) {
	        return new URITemplate(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	
	    }
	}
	export class Annotations {
	    audience?: string[];
	    priority?: number;
	    lastModified?: string;
	
	    static createFrom(source: any = {}) {
	        return new Annotations(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.audience = source["audience"];
	        this.priority = source["priority"];
	        this.lastModified = source["lastModified"];
	    }
	}
	export class ResourceTemplate {
	    // Go type: Annotations
	    annotations?: any;
	    _meta?: Meta;
	    uriTemplate?: URITemplate;
	    name: string;
	    title?: string;
	    description?: string;
	    mimeType?: string;
	    icons?: Icon[];
	
	    static createFrom(source: any = {}) {
	        return new ResourceTemplate(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.annotations = this.convertValues(source["annotations"], null);
	        this._meta = this.convertValues(source["_meta"], Meta);
	        this.uriTemplate = this.convertValues(source["uriTemplate"], URITemplate);
	        this.name = source["name"];
	        this.title = source["title"];
	        this.description = source["description"];
	        this.mimeType = source["mimeType"];
	        this.icons = this.convertValues(source["icons"], Icon);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ListResourceTemplatesResult {
	    _meta?: Meta;
	    resultType?: string;
	    ttlMs?: number;
	    cacheScope?: string;
	    nextCursor?: string;
	    resourceTemplates: ResourceTemplate[];
	
	    static createFrom(source: any = {}) {
	        return new ListResourceTemplatesResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this._meta = this.convertValues(source["_meta"], Meta);
	        this.resultType = source["resultType"];
	        this.ttlMs = source["ttlMs"];
	        this.cacheScope = source["cacheScope"];
	        this.nextCursor = source["nextCursor"];
	        this.resourceTemplates = this.convertValues(source["resourceTemplates"], ResourceTemplate);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Resource {
	    // Go type: Annotations
	    annotations?: any;
	    _meta?: Meta;
	    uri: string;
	    name: string;
	    title?: string;
	    description?: string;
	    mimeType?: string;
	    icons?: Icon[];
	    size?: number;
	
	    static createFrom(source: any = {}) {
	        return new Resource(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.annotations = this.convertValues(source["annotations"], null);
	        this._meta = this.convertValues(source["_meta"], Meta);
	        this.uri = source["uri"];
	        this.name = source["name"];
	        this.title = source["title"];
	        this.description = source["description"];
	        this.mimeType = source["mimeType"];
	        this.icons = this.convertValues(source["icons"], Icon);
	        this.size = source["size"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ListResourcesResult {
	    _meta?: Meta;
	    resultType?: string;
	    ttlMs?: number;
	    cacheScope?: string;
	    nextCursor?: string;
	    resources: Resource[];
	
	    static createFrom(source: any = {}) {
	        return new ListResourcesResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this._meta = this.convertValues(source["_meta"], Meta);
	        this.resultType = source["resultType"];
	        this.ttlMs = source["ttlMs"];
	        this.cacheScope = source["cacheScope"];
	        this.nextCursor = source["nextCursor"];
	        this.resources = this.convertValues(source["resources"], Resource);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class PromptArgument {
	    name: string;
	    title?: string;
	    description?: string;
	    required?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new PromptArgument(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.title = source["title"];
	        this.description = source["description"];
	        this.required = source["required"];
	    }
	}
	export class Prompt {
	    _meta?: Meta;
	    name: string;
	    title?: string;
	    description?: string;
	    arguments?: PromptArgument[];
	    icons?: Icon[];
	
	    static createFrom(source: any = {}) {
	        return new Prompt(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this._meta = this.convertValues(source["_meta"], Meta);
	        this.name = source["name"];
	        this.title = source["title"];
	        this.description = source["description"];
	        this.arguments = this.convertValues(source["arguments"], PromptArgument);
	        this.icons = this.convertValues(source["icons"], Icon);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	
	export class ReadResourceResult {
	    _meta?: Meta;
	    resultType?: string;
	    ttlMs?: number;
	    cacheScope?: string;
	    inputRequests?: Record<string, InputRequest>;
	    requestState?: string;
	    contents: any[];
	
	    static createFrom(source: any = {}) {
	        return new ReadResourceResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this._meta = this.convertValues(source["_meta"], Meta);
	        this.resultType = source["resultType"];
	        this.ttlMs = source["ttlMs"];
	        this.cacheScope = source["cacheScope"];
	        this.inputRequests = this.convertValues(source["inputRequests"], InputRequest, true);
	        this.requestState = source["requestState"];
	        this.contents = source["contents"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	

}

export namespace mcpconfig {
	
	export class Shown {
	    text: string;
	    secret: boolean;
	    partial: boolean;
	    length: number;
	    reads: string[];
	
	    static createFrom(source: any = {}) {
	        return new Shown(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.text = source["text"];
	        this.secret = source["secret"];
	        this.partial = source["partial"];
	        this.length = source["length"];
	        this.reads = source["reads"];
	    }
	}
	export class Change {
	    field: 'transport' | 'command' | 'args' | 'cwd' | 'env' | 'url' | 'headers' | 'enabled' | 'timeoutMs' | 'maxConcurrency' | 'protocolVersion' | 'allowTools' | 'denyTools' | 'roots' | 'other';
	    name: string;
	    old: Shown[];
	    new: Shown[];
	
	    static createFrom(source: any = {}) {
	        return new Change(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.field = source["field"];
	        this.name = source["name"];
	        this.old = this.convertValues(source["old"], Shown);
	        this.new = this.convertValues(source["new"], Shown);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class IdentityFacts {
	    transport: string;
	    command: string;
	    program?: string;
	    args?: string[];
	    env?: string[];
	    loadEnv?: Record<string, string>;
	    cwd?: string;
	    url?: string;
	
	    static createFrom(source: any = {}) {
	        return new IdentityFacts(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.transport = source["transport"];
	        this.command = source["command"];
	        this.program = source["program"];
	        this.args = source["args"];
	        this.env = source["env"];
	        this.loadEnv = source["loadEnv"];
	        this.cwd = source["cwd"];
	        this.url = source["url"];
	    }
	}
	export class Pair {
	    name: string;
	    value: Shown;
	
	    static createFrom(source: any = {}) {
	        return new Pair(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.value = this.convertValues(source["value"], Shown);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Problem {
	    line: number;
	    col: number;
	    field: string;
	    message: string;
	    code?: string;
	    params?: Record<string, unknown>;
	
	    static createFrom(source: any = {}) {
	        return new Problem(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.line = source["line"];
	        this.col = source["col"];
	        this.field = source["field"];
	        this.message = source["message"];
	        this.code = source["code"];
	        this.params = source["params"];
	    }
	}
	export class Warning {
	    code: string;
	    params: Record<string, string>;
	
	    static createFrom(source: any = {}) {
	        return new Warning(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.code = source["code"];
	        this.params = source["params"];
	    }
	}
	export class ServerPreview {
	    id: string;
	    transport: 'stdio' | 'http' | 'sse';
	    summary: string;
	    enabled: boolean;
	    replaces: boolean;
	    changes: Change[];
	    command: Shown;
	    args: Shown[];
	    cwd: Shown;
	    env: Pair[];
	    url: Shown;
	    host: string;
	    headers: Pair[];
	    roots: Shown[];
	    reads: string[];
	    inputs: string[];
	    warnings: Warning[];
	    line: number;
	    col: number;
	    problems: Problem[];
	
	    static createFrom(source: any = {}) {
	        return new ServerPreview(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.transport = source["transport"];
	        this.summary = source["summary"];
	        this.enabled = source["enabled"];
	        this.replaces = source["replaces"];
	        this.changes = this.convertValues(source["changes"], Change);
	        this.command = this.convertValues(source["command"], Shown);
	        this.args = this.convertValues(source["args"], Shown);
	        this.cwd = this.convertValues(source["cwd"], Shown);
	        this.env = this.convertValues(source["env"], Pair);
	        this.url = this.convertValues(source["url"], Shown);
	        this.host = source["host"];
	        this.headers = this.convertValues(source["headers"], Pair);
	        this.roots = this.convertValues(source["roots"], Shown);
	        this.reads = source["reads"];
	        this.inputs = source["inputs"];
	        this.warnings = this.convertValues(source["warnings"], Warning);
	        this.line = source["line"];
	        this.col = source["col"];
	        this.problems = this.convertValues(source["problems"], Problem);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	

}

export namespace mcppool {
	
	export class CompletionRef {
	    kind: string;
	    name: string;
	
	    static createFrom(source: any = {}) {
	        return new CompletionRef(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.kind = source["kind"];
	        this.name = source["name"];
	    }
	}
	export class EmbeddedUI {
	    uri: string;
	    mimeType: string;
	    text: string;
	    blob: string;
	
	    static createFrom(source: any = {}) {
	        return new EmbeddedUI(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.uri = source["uri"];
	        this.mimeType = source["mimeType"];
	        this.text = source["text"];
	        this.blob = source["blob"];
	    }
	}
	export class ListedTool {
	    _meta?: mcp.Meta;
	    name: string;
	    title?: string;
	    description?: string;
	    // Go type: mcp
	    inputSchema: any;
	    // Go type: mcp
	    outputSchema: any;
	    // Go type: mcp
	    annotations: any;
	    defer_loading?: boolean;
	    icons?: mcp.Icon[];
	    // Go type: mcp
	    execution?: any;
	
	    static createFrom(source: any = {}) {
	        return new ListedTool(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this._meta = this.convertValues(source["_meta"], mcp.Meta);
	        this.name = source["name"];
	        this.title = source["title"];
	        this.description = source["description"];
	        this.inputSchema = this.convertValues(source["inputSchema"], null);
	        this.outputSchema = this.convertValues(source["outputSchema"], null);
	        this.annotations = this.convertValues(source["annotations"], null);
	        this.defer_loading = source["defer_loading"];
	        this.icons = this.convertValues(source["icons"], mcp.Icon);
	        this.execution = this.convertValues(source["execution"], null);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class PoolDefaults {
	    timeoutMs: number;
	
	    static createFrom(source: any = {}) {
	        return new PoolDefaults(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.timeoutMs = source["timeoutMs"];
	    }
	}
	export class SecretPair {
	    key: string;
	    value: string;
	    keep: boolean;
	    secret?: boolean;
	    inFile?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new SecretPair(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.key = source["key"];
	        this.value = source["value"];
	        this.keep = source["keep"];
	        this.secret = source["secret"];
	        this.inFile = source["inFile"];
	    }
	}
	export class ServerCapabilities {
	    tools: boolean;
	    toolsListChanged: boolean;
	    resources: boolean;
	    resourcesSubscribe: boolean;
	    resourcesListChanged: boolean;
	    prompts: boolean;
	    promptsListChanged: boolean;
	    logging: boolean;
	    completions: boolean;
	    tasks: boolean;
	    experimental: string[];
	
	    static createFrom(source: any = {}) {
	        return new ServerCapabilities(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.tools = source["tools"];
	        this.toolsListChanged = source["toolsListChanged"];
	        this.resources = source["resources"];
	        this.resourcesSubscribe = source["resourcesSubscribe"];
	        this.resourcesListChanged = source["resourcesListChanged"];
	        this.prompts = source["prompts"];
	        this.promptsListChanged = source["promptsListChanged"];
	        this.logging = source["logging"];
	        this.completions = source["completions"];
	        this.tasks = source["tasks"];
	        this.experimental = source["experimental"];
	    }
	}
	export class StartRecord {
	    time: number;
	    cause: 'start'|'userRestart'|'configChanged'|'enabled'|'retry'|'connectionLost';
	    detail?: string;
	
	    static createFrom(source: any = {}) {
	        return new StartRecord(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.time = source["time"];
	        this.cause = source["cause"];
	        this.detail = source["detail"];
	    }
	}
	export class ServerSpec {
	    id: string;
	    type: string;
	    command: string;
	    args: string[];
	    env: SecretPair[];
	    cwd: string;
	    url: string;
	    headers: SecretPair[];
	    auth: ''|'oauth'|'none';
	    oauth: SecretPair[];
	    enabled: boolean;
	    timeoutMs: number;
	    maxConcurrency: number;
	    maxMessageBytes: number;
	    protocolVersion: string;
	    roots?: string[];
	
	    static createFrom(source: any = {}) {
	        return new ServerSpec(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.type = source["type"];
	        this.command = source["command"];
	        this.args = source["args"];
	        this.env = this.convertValues(source["env"], SecretPair);
	        this.cwd = source["cwd"];
	        this.url = source["url"];
	        this.headers = this.convertValues(source["headers"], SecretPair);
	        this.auth = source["auth"];
	        this.oauth = this.convertValues(source["oauth"], SecretPair);
	        this.enabled = source["enabled"];
	        this.timeoutMs = source["timeoutMs"];
	        this.maxConcurrency = source["maxConcurrency"];
	        this.maxMessageBytes = source["maxMessageBytes"];
	        this.protocolVersion = source["protocolVersion"];
	        this.roots = source["roots"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ServerDetail {
	    spec: ServerSpec;
	    status: events.ServerStatusPayload;
	    capabilities?: ServerCapabilities;
	    instructions: string;
	    stderr: string;
	    starts: StartRecord[];
	
	    static createFrom(source: any = {}) {
	        return new ServerDetail(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.spec = this.convertValues(source["spec"], ServerSpec);
	        this.status = this.convertValues(source["status"], events.ServerStatusPayload);
	        this.capabilities = this.convertValues(source["capabilities"], ServerCapabilities);
	        this.instructions = source["instructions"];
	        this.stderr = source["stderr"];
	        this.starts = this.convertValues(source["starts"], StartRecord);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class ServerView {
	    spec: ServerSpec;
	    status: events.ServerStatusPayload;
	
	    static createFrom(source: any = {}) {
	        return new ServerView(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.spec = this.convertValues(source["spec"], ServerSpec);
	        this.status = this.convertValues(source["status"], events.ServerStatusPayload);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class ToolCallOutcome {
	    result: mcp.CallToolResult;
	    durationMs: number;
	
	    static createFrom(source: any = {}) {
	        return new ToolCallOutcome(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.result = this.convertValues(source["result"], mcp.CallToolResult);
	        this.durationMs = source["durationMs"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ToolCallRequest {
	    callId: string;
	    server: string;
	    tool: string;
	    arguments: Record<string, any>;
	
	    static createFrom(source: any = {}) {
	        return new ToolCallRequest(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.callId = source["callId"];
	        this.server = source["server"];
	        this.tool = source["tool"];
	        this.arguments = source["arguments"];
	    }
	}
	export class ToolSelection {
	    disabled: string[];
	    enabled: number;
	    total: number;
	    viewOnly: number;
	    estimatedTokens: number;
	    warnAbove: number;
	
	    static createFrom(source: any = {}) {
	        return new ToolSelection(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.disabled = source["disabled"];
	        this.enabled = source["enabled"];
	        this.total = source["total"];
	        this.viewOnly = source["viewOnly"];
	        this.estimatedTokens = source["estimatedTokens"];
	        this.warnAbove = source["warnAbove"];
	    }
	}
	export class ToolTrust {
	    hash: string;
	    warnings: trust.Warning[];
	
	    static createFrom(source: any = {}) {
	        return new ToolTrust(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.hash = source["hash"];
	        this.warnings = this.convertValues(source["warnings"], trust.Warning);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ViewDomains {
	    connect: string[];
	    resource: string[];
	    frame: string[];
	    baseUri: string[];
	
	    static createFrom(source: any = {}) {
	        return new ViewDomains(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.connect = source["connect"];
	        this.resource = source["resource"];
	        this.frame = source["frame"];
	        this.baseUri = source["baseUri"];
	    }
	}
	export class ViewFile {
	    uri: string;
	    mimeType: string;
	    text: string;
	    blob: string;
	
	    static createFrom(source: any = {}) {
	        return new ViewFile(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.uri = source["uri"];
	        this.mimeType = source["mimeType"];
	        this.text = source["text"];
	        this.blob = source["blob"];
	    }
	}
	export class ViewPage {
	    token: string;
	    server: string;
	    uri: string;
	    kind: string;
	    url: string;
	    path: string;
	    csp: string;
	    allow: string;
	    domains: ViewDomains;
	    refused: string[];
	    prefersBorder: boolean;
	    hash: string;
	    previousHash: string;
	
	    static createFrom(source: any = {}) {
	        return new ViewPage(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.token = source["token"];
	        this.server = source["server"];
	        this.uri = source["uri"];
	        this.kind = source["kind"];
	        this.url = source["url"];
	        this.path = source["path"];
	        this.csp = source["csp"];
	        this.allow = source["allow"];
	        this.domains = this.convertValues(source["domains"], ViewDomains);
	        this.refused = source["refused"];
	        this.prefersBorder = source["prefersBorder"];
	        this.hash = source["hash"];
	        this.previousHash = source["previousHash"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ViewToolCall {
	    token: string;
	    callId: string;
	    tool: string;
	    arguments: Record<string, any>;
	    conversationId: number;
	    userApproved: boolean;
	
	    static createFrom(source: any = {}) {
	        return new ViewToolCall(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.token = source["token"];
	        this.callId = source["callId"];
	        this.tool = source["tool"];
	        this.arguments = source["arguments"];
	        this.conversationId = source["conversationId"];
	        this.userApproved = source["userApproved"];
	    }
	}

}

export namespace notify {
	
	export class Notification {
	    kind: 'reply' | 'approval' | 'question' | 'task';
	    title: string;
	    body: string;
	    conversation: number;
	
	    static createFrom(source: any = {}) {
	        return new Notification(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.kind = source["kind"];
	        this.title = source["title"];
	        this.body = source["body"];
	        this.conversation = source["conversation"];
	    }
	}

}

export namespace providers {
	
	export class Health {
	    code: 'untested' | 'ok' | 'no_key' | 'env_unset' | 'keychain_unreadable' | 'key_rejected' | 'unreachable' | 'model_missing' | 'no_models' | 'quota' | 'rate_limited' | 'server_error' | 'failed';
	    params?: Record<string, string>;
	    usable: boolean;
	    source: 'config' | 'test' | 'chat';
	    // Go type: time
	    at?: any;
	    message: string;
	    detail?: string;
	
	    static createFrom(source: any = {}) {
	        return new Health(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.code = source["code"];
	        this.params = source["params"];
	        this.usable = source["usable"];
	        this.source = source["source"];
	        this.at = this.convertValues(source["at"], null);
	        this.message = source["message"];
	        this.detail = source["detail"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ConnectionResult {
	    ok: boolean;
	    models: number;
	    latencyMs: number;
	    model?: string;
	    error?: string;
	    health: Health;
	
	    static createFrom(source: any = {}) {
	        return new ConnectionResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.ok = source["ok"];
	        this.models = source["models"];
	        this.latencyMs = source["latencyMs"];
	        this.model = source["model"];
	        this.error = source["error"];
	        this.health = this.convertValues(source["health"], Health);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class EnvVar {
	    name: string;
	    set: boolean;
	    providers: string[];
	
	    static createFrom(source: any = {}) {
	        return new EnvVar(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.set = source["set"];
	        this.providers = source["providers"];
	    }
	}
	export class EnvReload {
	    reloaded: boolean;
	    vars: EnvVar[];
	
	    static createFrom(source: any = {}) {
	        return new EnvReload(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.reloaded = source["reloaded"];
	        this.vars = this.convertValues(source["vars"], EnvVar);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	
	export class Model {
	    id: string;
	    ownedBy?: string;
	    listed: boolean;
	    manual: boolean;
	
	    static createFrom(source: any = {}) {
	        return new Model(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.ownedBy = source["ownedBy"];
	        this.listed = source["listed"];
	        this.manual = source["manual"];
	    }
	}
	export class ModelList {
	    provider: string;
	    models: Model[];
	    error?: string;
	
	    static createFrom(source: any = {}) {
	        return new ModelList(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.provider = source["provider"];
	        this.models = this.convertValues(source["models"], Model);
	        this.error = source["error"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ModelRef {
	    provider: string;
	    model: string;
	
	    static createFrom(source: any = {}) {
	        return new ModelRef(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.provider = source["provider"];
	        this.model = source["model"];
	    }
	}
	export class OllamaStatus {
	    running: boolean;
	    version?: string;
	    url: string;
	
	    static createFrom(source: any = {}) {
	        return new OllamaStatus(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.running = source["running"];
	        this.version = source["version"];
	        this.url = source["url"];
	    }
	}
	export class PickerProvider {
	    id: string;
	    name: string;
	    type: 'openai' | 'ollama';
	    models: Model[];
	    error?: string;
	
	    static createFrom(source: any = {}) {
	        return new PickerProvider(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.type = source["type"];
	        this.models = this.convertValues(source["models"], Model);
	        this.error = source["error"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Preset {
	    id: string;
	    name: string;
	    type: 'openai' | 'ollama';
	    baseUrl: string;
	    keyEnv: string;
	    keyUrl: string;
	    needsKey: boolean;
	    azure: boolean;
	    headers: Record<string, string>;
	
	    static createFrom(source: any = {}) {
	        return new Preset(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.type = source["type"];
	        this.baseUrl = source["baseUrl"];
	        this.keyEnv = source["keyEnv"];
	        this.keyUrl = source["keyUrl"];
	        this.needsKey = source["needsKey"];
	        this.azure = source["azure"];
	        this.headers = source["headers"];
	    }
	}
	export class Provider {
	    id: string;
	    name: string;
	    type: 'openai' | 'ollama';
	    preset: string;
	    baseUrl: string;
	    keyEnv: string;
	    azure: boolean;
	    azureApiVersion: string;
	    headers: Record<string, string>;
	    enabled: boolean;
	    manualModels: string[];
	    needsKey: boolean;
	    hasKey: boolean;
	    keySource: 'keychain' | 'env' | 'none';
	    keyProblem?: string;
	    usable: boolean;
	    health: Health;
	    // Go type: time
	    createdAt: any;
	    // Go type: time
	    updatedAt: any;
	
	    static createFrom(source: any = {}) {
	        return new Provider(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.type = source["type"];
	        this.preset = source["preset"];
	        this.baseUrl = source["baseUrl"];
	        this.keyEnv = source["keyEnv"];
	        this.azure = source["azure"];
	        this.azureApiVersion = source["azureApiVersion"];
	        this.headers = source["headers"];
	        this.enabled = source["enabled"];
	        this.manualModels = source["manualModels"];
	        this.needsKey = source["needsKey"];
	        this.hasKey = source["hasKey"];
	        this.keySource = source["keySource"];
	        this.keyProblem = source["keyProblem"];
	        this.usable = source["usable"];
	        this.health = this.convertValues(source["health"], Health);
	        this.createdAt = this.convertValues(source["createdAt"], null);
	        this.updatedAt = this.convertValues(source["updatedAt"], null);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ProviderInput {
	    id: string;
	    name: string;
	    type: string;
	    preset: string;
	    baseUrl: string;
	    keyEnv: string;
	    azure: boolean;
	    azureApiVersion: string;
	    headers: Record<string, string>;
	    enabled?: boolean;
	    apiKey?: string;
	
	    static createFrom(source: any = {}) {
	        return new ProviderInput(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.type = source["type"];
	        this.preset = source["preset"];
	        this.baseUrl = source["baseUrl"];
	        this.keyEnv = source["keyEnv"];
	        this.azure = source["azure"];
	        this.azureApiVersion = source["azureApiVersion"];
	        this.headers = source["headers"];
	        this.enabled = source["enabled"];
	        this.apiKey = source["apiKey"];
	    }
	}

}

export namespace remotecontent {
	
	export class Scope {
	    kind: 'conversation' | 'server';
	    id: string;
	
	    static createFrom(source: any = {}) {
	        return new Scope(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.kind = source["kind"];
	        this.id = source["id"];
	    }
	}
	export class Grant {
	    scope: Scope;
	    host: string;
	    label: string;
	    grantedAt: string;
	
	    static createFrom(source: any = {}) {
	        return new Grant(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.scope = this.convertValues(source["scope"], Scope);
	        this.host = source["host"];
	        this.label = source["label"];
	        this.grantedAt = source["grantedAt"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

export namespace settings {
	
	export class AppInfo {
	    version: string;
	    dataDir: string;
	    configFile: string;
	    databaseFile: string;
	
	    static createFrom(source: any = {}) {
	        return new AppInfo(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.version = source["version"];
	        this.dataDir = source["dataDir"];
	        this.configFile = source["configFile"];
	        this.databaseFile = source["databaseFile"];
	    }
	}
	export class DesktopStatus {
	    tray: boolean;
	    hotkey: string;
	    hotkeyError: string;
	    quickChatCommand: string;
	    notificationClicks: boolean;
	
	    static createFrom(source: any = {}) {
	        return new DesktopStatus(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.tray = source["tray"];
	        this.hotkey = source["hotkey"];
	        this.hotkeyError = source["hotkeyError"];
	        this.quickChatCommand = source["quickChatCommand"];
	        this.notificationClicks = source["notificationClicks"];
	    }
	}
	export class KeychainStatus {
	    state: 'ok' | 'read_only' | 'unavailable';
	    available: boolean;
	    reason: string;
	    storedKeys: number;
	    // Go type: time
	    checkedAt: any;
	
	    static createFrom(source: any = {}) {
	        return new KeychainStatus(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.state = source["state"];
	        this.available = source["available"];
	        this.reason = source["reason"];
	        this.storedKeys = source["storedKeys"];
	        this.checkedAt = this.convertValues(source["checkedAt"], null);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Prefs {
	    theme: 'system' | 'light' | 'dark';
	    language: '' | 'en' | 'zh-CN';
	    quitOnClose: boolean;
	    notifyOff: ('reply' | 'approval' | 'question' | 'task')[] | null;
	
	    static createFrom(source: any = {}) {
	        return new Prefs(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.theme = source["theme"];
	        this.language = source["language"];
	        this.quitOnClose = source["quitOnClose"];
	        this.notifyOff = source["notifyOff"];
	    }
	}

}

export namespace store {
	
	export class Attachment {
	    name?: string;
	    mimeType: string;
	    kind: string;
	    hash: string;
	    size: number;
	    textHash?: string;
	    width?: number;
	    height?: number;
	    pages?: number;
	
	    static createFrom(source: any = {}) {
	        return new Attachment(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.name = source["name"];
	        this.mimeType = source["mimeType"];
	        this.kind = source["kind"];
	        this.hash = source["hash"];
	        this.size = source["size"];
	        this.textHash = source["textHash"];
	        this.width = source["width"];
	        this.height = source["height"];
	        this.pages = source["pages"];
	    }
	}
	export class AuditEntry {
	    id: number;
	    // Go type: time
	    time: any;
	    source: 'chat' | 'tools' | 'cli' | 'view';
	    conversationId: number;
	    server: string;
	    tool: string;
	    arguments: string;
	    argumentsTruncated: boolean;
	    approval: string;
	    status: 'ok' | 'error' | 'cancelled' | 'declined' | 'timeout';
	    durationMs: number;
	    output: string;
	    outputTruncated: boolean;
	    error: string;
	    definitionHash: string;
	
	    static createFrom(source: any = {}) {
	        return new AuditEntry(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.time = this.convertValues(source["time"], null);
	        this.source = source["source"];
	        this.conversationId = source["conversationId"];
	        this.server = source["server"];
	        this.tool = source["tool"];
	        this.arguments = source["arguments"];
	        this.argumentsTruncated = source["argumentsTruncated"];
	        this.approval = source["approval"];
	        this.status = source["status"];
	        this.durationMs = source["durationMs"];
	        this.output = source["output"];
	        this.outputTruncated = source["outputTruncated"];
	        this.error = source["error"];
	        this.definitionHash = source["definitionHash"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ConversationSettings {
	    provider: string;
	    model: string;
	    systemPrompt: string;
	    temperature?: number;
	    servers: string[] | null;
	    tools: Record<string, ToolFilter> | null;
	    maxSteps?: number;
	
	    static createFrom(source: any = {}) {
	        return new ConversationSettings(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.provider = source["provider"];
	        this.model = source["model"];
	        this.systemPrompt = source["systemPrompt"];
	        this.temperature = source["temperature"];
	        this.servers = source["servers"];
	        this.tools = source["tools"];
	        this.maxSteps = source["maxSteps"];
	    }
	}
	export class Conversation {
	    id: number;
	    title: string;
	    settings: ConversationSettings;
	    pinned: boolean;
	    // Go type: time
	    createdAt: any;
	    // Go type: time
	    updatedAt: any;
	
	    static createFrom(source: any = {}) {
	        return new Conversation(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.title = source["title"];
	        this.settings = this.convertValues(source["settings"], ConversationSettings);
	        this.pinned = source["pinned"];
	        this.createdAt = this.convertValues(source["createdAt"], null);
	        this.updatedAt = this.convertValues(source["updatedAt"], null);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	export class ConversationSummary {
	    id: number;
	    title: string;
	    provider: string;
	    model: string;
	    pinned: boolean;
	    messageCount: number;
	    preview: string;
	    // Go type: time
	    createdAt: any;
	    // Go type: time
	    updatedAt: any;
	
	    static createFrom(source: any = {}) {
	        return new ConversationSummary(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.title = source["title"];
	        this.provider = source["provider"];
	        this.model = source["model"];
	        this.pinned = source["pinned"];
	        this.messageCount = source["messageCount"];
	        this.preview = source["preview"];
	        this.createdAt = this.convertValues(source["createdAt"], null);
	        this.updatedAt = this.convertValues(source["updatedAt"], null);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class TokenUsage {
	    promptTokens: number;
	    completionTokens: number;
	    cachedTokens: number;
	    reasoningTokens: number;
	
	    static createFrom(source: any = {}) {
	        return new TokenUsage(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.promptTokens = source["promptTokens"];
	        this.completionTokens = source["completionTokens"];
	        this.cachedTokens = source["cachedTokens"];
	        this.reasoningTokens = source["reasoningTokens"];
	    }
	}
	export class ToolCall {
	    id: string;
	    name: string;
	    arguments: string;
	    server: string;
	    tool: string;
	    status: string;
	    result?: any;
	    resultTruncated?: boolean;
	    resultBytes?: number;
	    error?: string;
	    durationMs?: number;
	    approval?: string;
	    viewUri?: string;
	    viewContext?: string;
	    widgetState?: string;
	    viewStorage?: string;
	
	    static createFrom(source: any = {}) {
	        return new ToolCall(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.name = source["name"];
	        this.arguments = source["arguments"];
	        this.server = source["server"];
	        this.tool = source["tool"];
	        this.status = source["status"];
	        this.result = source["result"];
	        this.resultTruncated = source["resultTruncated"];
	        this.resultBytes = source["resultBytes"];
	        this.error = source["error"];
	        this.durationMs = source["durationMs"];
	        this.approval = source["approval"];
	        this.viewUri = source["viewUri"];
	        this.viewContext = source["viewContext"];
	        this.widgetState = source["widgetState"];
	        this.viewStorage = source["viewStorage"];
	    }
	}
	export class Message {
	    id: number;
	    conversationId: number;
	    seq: number;
	    role: string;
	    content: string;
	    reasoning: string;
	    toolCalls: ToolCall[];
	    toolCallId: string;
	    attachments: Attachment[];
	    hidden: boolean;
	    status: string;
	    error: string;
	    model: string;
	    usage?: TokenUsage;
	    // Go type: time
	    createdAt: any;
	    // Go type: time
	    updatedAt: any;
	    versionGroup: number;
	    version: number;
	    selectedVersion: number;
	    versions: number;
	
	    static createFrom(source: any = {}) {
	        return new Message(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.conversationId = source["conversationId"];
	        this.seq = source["seq"];
	        this.role = source["role"];
	        this.content = source["content"];
	        this.reasoning = source["reasoning"];
	        this.toolCalls = this.convertValues(source["toolCalls"], ToolCall);
	        this.toolCallId = source["toolCallId"];
	        this.attachments = this.convertValues(source["attachments"], Attachment);
	        this.hidden = source["hidden"];
	        this.status = source["status"];
	        this.error = source["error"];
	        this.model = source["model"];
	        this.usage = this.convertValues(source["usage"], TokenUsage);
	        this.createdAt = this.convertValues(source["createdAt"], null);
	        this.updatedAt = this.convertValues(source["updatedAt"], null);
	        this.versionGroup = source["versionGroup"];
	        this.version = source["version"];
	        this.selectedVersion = source["selectedVersion"];
	        this.versions = source["versions"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class SavedRequest {
	    id: number;
	    server: string;
	    tool: string;
	    name: string;
	    description: string;
	    arguments: Record<string, any>;
	    // Go type: time
	    createdAt: any;
	    // Go type: time
	    updatedAt: any;
	
	    static createFrom(source: any = {}) {
	        return new SavedRequest(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.server = source["server"];
	        this.tool = source["tool"];
	        this.name = source["name"];
	        this.description = source["description"];
	        this.arguments = source["arguments"];
	        this.createdAt = this.convertValues(source["createdAt"], null);
	        this.updatedAt = this.convertValues(source["updatedAt"], null);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class SearchHit {
	    conversationId: number;
	    conversationTitle: string;
	    messageId: number;
	    role: string;
	    snippet: string;
	    // Go type: time
	    createdAt: any;
	    version: number;
	    versions: number;
	
	    static createFrom(source: any = {}) {
	        return new SearchHit(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.conversationId = source["conversationId"];
	        this.conversationTitle = source["conversationTitle"];
	        this.messageId = source["messageId"];
	        this.role = source["role"];
	        this.snippet = source["snippet"];
	        this.createdAt = this.convertValues(source["createdAt"], null);
	        this.version = source["version"];
	        this.versions = source["versions"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	
	export class ToolFilter {
	    allowed?: string[];
	    disabled?: string[];
	
	    static createFrom(source: any = {}) {
	        return new ToolFilter(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.allowed = source["allowed"];
	        this.disabled = source["disabled"];
	    }
	}

}

export namespace trust {
	
	export class SchemaChange {
	    path: string;
	    op: 'added' | 'removed' | 'changed';
	    before?: string;
	    after?: string;
	    text?: Span[];
	
	    static createFrom(source: any = {}) {
	        return new SchemaChange(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.path = source["path"];
	        this.op = source["op"];
	        this.before = source["before"];
	        this.after = source["after"];
	        this.text = this.convertValues(source["text"], Span);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Span {
	    op: 'equal' | 'insert' | 'delete';
	    text: string;
	
	    static createFrom(source: any = {}) {
	        return new Span(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.op = source["op"];
	        this.text = source["text"];
	    }
	}
	export class ToolChange {
	    hashBefore: string;
	    hashAfter: string;
	    known: boolean;
	    title?: Span[];
	    description?: Span[];
	    inputSchema?: SchemaChange[];
	    annotations?: SchemaChange[];
	
	    static createFrom(source: any = {}) {
	        return new ToolChange(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.hashBefore = source["hashBefore"];
	        this.hashAfter = source["hashAfter"];
	        this.known = source["known"];
	        this.title = this.convertValues(source["title"], Span);
	        this.description = this.convertValues(source["description"], Span);
	        this.inputSchema = this.convertValues(source["inputSchema"], SchemaChange);
	        this.annotations = this.convertValues(source["annotations"], SchemaChange);
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class ServerChange {
	    before: mcpconfig.IdentityFacts;
	    after: mcpconfig.IdentityFacts;
	    what: string[];
	    envAdded?: string[];
	    envRemoved?: string[];
	    loadEnvChanged?: string[];
	
	    static createFrom(source: any = {}) {
	        return new ServerChange(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.before = this.convertValues(source["before"], mcpconfig.IdentityFacts);
	        this.after = this.convertValues(source["after"], mcpconfig.IdentityFacts);
	        this.what = source["what"];
	        this.envAdded = source["envAdded"];
	        this.envRemoved = source["envRemoved"];
	        this.loadEnvChanged = source["loadEnvChanged"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class Change {
	    policy: 'always' | 'conversation' | 'server';
	    server?: ServerChange;
	    tool?: ToolChange;
	    new?: boolean;
	
	    static createFrom(source: any = {}) {
	        return new Change(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.policy = source["policy"];
	        this.server = this.convertValues(source["server"], ServerChange);
	        this.tool = this.convertValues(source["tool"], ToolChange);
	        this.new = source["new"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	
	
	
	
	export class Warning {
	    kind: 'hiddenText' | 'bidi' | 'invisible' | 'instructions' | 'sensitive' | 'exfiltration' | 'otherServer';
	    field: string;
	    params?: Record<string, string>;
	
	    static createFrom(source: any = {}) {
	        return new Warning(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.kind = source["kind"];
	        this.field = source["field"];
	        this.params = source["params"];
	    }
	}

}

export namespace usage {
	
	export class AuditPage {
	    entries: store.AuditEntry[];
	    total: number;
	
	    static createFrom(source: any = {}) {
	        return new AuditPage(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.entries = this.convertValues(source["entries"], store.AuditEntry);
	        this.total = source["total"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}
	export class AuditQuery {
	    from: string;
	    to: string;
	    tzOffsetMinutes: number;
	    server: string;
	    tool: string;
	    status: 'ok' | 'error' | 'cancelled' | 'declined' | 'timeout' | '';
	    source: 'chat' | 'tools' | 'cli' | 'view' | '';
	    text: string;
	    limit: number;
	    offset: number;
	
	    static createFrom(source: any = {}) {
	        return new AuditQuery(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.from = source["from"];
	        this.to = source["to"];
	        this.tzOffsetMinutes = source["tzOffsetMinutes"];
	        this.server = source["server"];
	        this.tool = source["tool"];
	        this.status = source["status"];
	        this.source = source["source"];
	        this.text = source["text"];
	        this.limit = source["limit"];
	        this.offset = source["offset"];
	    }
	}
	export class ConversationRow {
	    key: string;
	    label: string;
	    conversationId: number;
	    title: string;
	    deleted: boolean;
	    calls: number;
	    promptTokens: number;
	    completionTokens: number;
	    cachedTokens: number;
	    reasoningTokens: number;
	    cost?: number;
	    pricedCost: number;
	    unpricedCalls: number;
	    costPartial: boolean;
	
	    static createFrom(source: any = {}) {
	        return new ConversationRow(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.key = source["key"];
	        this.label = source["label"];
	        this.conversationId = source["conversationId"];
	        this.title = source["title"];
	        this.deleted = source["deleted"];
	        this.calls = source["calls"];
	        this.promptTokens = source["promptTokens"];
	        this.completionTokens = source["completionTokens"];
	        this.cachedTokens = source["cachedTokens"];
	        this.reasoningTokens = source["reasoningTokens"];
	        this.cost = source["cost"];
	        this.pricedCost = source["pricedCost"];
	        this.unpricedCalls = source["unpricedCalls"];
	        this.costPartial = source["costPartial"];
	    }
	}
	export class Price {
	    provider: string;
	    model: string;
	    inputPerM: number;
	    cachedInputPerM?: number;
	    outputPerM: number;
	    source: 'default' | 'user';
	
	    static createFrom(source: any = {}) {
	        return new Price(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.provider = source["provider"];
	        this.model = source["model"];
	        this.inputPerM = source["inputPerM"];
	        this.cachedInputPerM = source["cachedInputPerM"];
	        this.outputPerM = source["outputPerM"];
	        this.source = source["source"];
	    }
	}
	export class Row {
	    key: string;
	    label: string;
	    day?: string;
	    provider?: string;
	    preset?: string;
	    model?: string;
	    calls: number;
	    promptTokens: number;
	    completionTokens: number;
	    cachedTokens: number;
	    reasoningTokens: number;
	    cost?: number;
	    pricedCost: number;
	    unpricedCalls: number;
	    costPartial: boolean;
	
	    static createFrom(source: any = {}) {
	        return new Row(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.key = source["key"];
	        this.label = source["label"];
	        this.day = source["day"];
	        this.provider = source["provider"];
	        this.preset = source["preset"];
	        this.model = source["model"];
	        this.calls = source["calls"];
	        this.promptTokens = source["promptTokens"];
	        this.completionTokens = source["completionTokens"];
	        this.cachedTokens = source["cachedTokens"];
	        this.reasoningTokens = source["reasoningTokens"];
	        this.cost = source["cost"];
	        this.pricedCost = source["pricedCost"];
	        this.unpricedCalls = source["unpricedCalls"];
	        this.costPartial = source["costPartial"];
	    }
	}
	export class Totals {
	    calls: number;
	    promptTokens: number;
	    completionTokens: number;
	    cachedTokens: number;
	    reasoningTokens: number;
	    cost?: number;
	    pricedCost: number;
	    unpricedCalls: number;
	    costPartial: boolean;
	
	    static createFrom(source: any = {}) {
	        return new Totals(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.calls = source["calls"];
	        this.promptTokens = source["promptTokens"];
	        this.completionTokens = source["completionTokens"];
	        this.cachedTokens = source["cachedTokens"];
	        this.reasoningTokens = source["reasoningTokens"];
	        this.cost = source["cost"];
	        this.pricedCost = source["pricedCost"];
	        this.unpricedCalls = source["unpricedCalls"];
	        this.costPartial = source["costPartial"];
	    }
	}
	export class UsageQuery {
	    from: string;
	    to: string;
	    tzOffsetMinutes: number;
	    provider: string;
	    model: string;
	    conversationId: number;
	
	    static createFrom(source: any = {}) {
	        return new UsageQuery(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.from = source["from"];
	        this.to = source["to"];
	        this.tzOffsetMinutes = source["tzOffsetMinutes"];
	        this.provider = source["provider"];
	        this.model = source["model"];
	        this.conversationId = source["conversationId"];
	    }
	}
	export class UsageSummary {
	    from: string;
	    to: string;
	    tzOffsetMinutes: number;
	    totals: Totals;
	    byDay: Row[];
	    byProvider: Row[];
	    byModel: Row[];
	    byConversation: ConversationRow[];
	    conversations: number;
	    unpriced: string[];
	
	    static createFrom(source: any = {}) {
	        return new UsageSummary(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.from = source["from"];
	        this.to = source["to"];
	        this.tzOffsetMinutes = source["tzOffsetMinutes"];
	        this.totals = this.convertValues(source["totals"], Totals);
	        this.byDay = this.convertValues(source["byDay"], Row);
	        this.byProvider = this.convertValues(source["byProvider"], Row);
	        this.byModel = this.convertValues(source["byModel"], Row);
	        this.byConversation = this.convertValues(source["byConversation"], ConversationRow);
	        this.conversations = source["conversations"];
	        this.unpriced = source["unpriced"];
	    }
	
		convertValues(a: any, classs: any, asMap: boolean = false): any {
		    if (!a) {
		        return a;
		    }
		    if (a.slice && a.map) {
		        return (a as any[]).map(elem => this.convertValues(elem, classs));
		    } else if ("object" === typeof a) {
		        if (asMap) {
		            for (const key of Object.keys(a)) {
		                a[key] = new classs(a[key]);
		            }
		            return a;
		        }
		        return new classs(a);
		    }
		    return a;
		}
	}

}

