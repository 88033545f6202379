export namespace events {
	
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
	    error?: string;
	    stderr?: string;
	    attempt?: number;
	    nextRetryMs?: number;
	
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
	        this.error = source["error"];
	        this.stderr = source["stderr"];
	        this.attempt = source["attempt"];
	        this.nextRetryMs = source["nextRetryMs"];
	    }
	}

}

export namespace mcp {
	
	export class ImportItem {
	    id: string;
	    transport: string;
	    summary: string;
	    replaces: boolean;
	
	    static createFrom(source: any = {}) {
	        return new ImportItem(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.id = source["id"];
	        this.transport = source["transport"];
	        this.summary = source["summary"];
	        this.replaces = source["replaces"];
	    }
	}
	export class ImportPreview {
	    file: string;
	    format: string;
	    items: ImportItem[];
	
	    static createFrom(source: any = {}) {
	        return new ImportPreview(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.file = source["file"];
	        this.format = source["format"];
	        this.items = this.convertValues(source["items"], ImportItem);
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
	export class ImportResult {
	    added: string[];
	    replaced: string[];
	
	    static createFrom(source: any = {}) {
	        return new ImportResult(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.added = source["added"];
	        this.replaced = source["replaced"];
	    }
	}
	export class SecretPair {
	    key: string;
	    value: string;
	    keep: boolean;
	
	    static createFrom(source: any = {}) {
	        return new SecretPair(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.key = source["key"];
	        this.value = source["value"];
	        this.keep = source["keep"];
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
	    enabled: boolean;
	    timeoutMs: number;
	    maxConcurrency: number;
	    protocolVersion: string;
	
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
	        this.enabled = source["enabled"];
	        this.timeoutMs = source["timeoutMs"];
	        this.maxConcurrency = source["maxConcurrency"];
	        this.protocolVersion = source["protocolVersion"];
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
	export class KeychainStatus {
	    available: boolean;
	    reason: string;
	
	    static createFrom(source: any = {}) {
	        return new KeychainStatus(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.available = source["available"];
	        this.reason = source["reason"];
	    }
	}
	export class Prefs {
	    theme: string;
	    language: string;
	
	    static createFrom(source: any = {}) {
	        return new Prefs(source);
	    }
	
	    constructor(source: any = {}) {
	        if ('string' === typeof source) source = JSON.parse(source);
	        this.theme = source["theme"];
	        this.language = source["language"];
	    }
	}

}

