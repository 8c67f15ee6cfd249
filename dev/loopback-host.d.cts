/** Types of loopback-host.cjs (the Host header rule shared with n8n's preload). */
export declare function isLoopbackHostHeader(header: string | undefined, extra?: readonly string[]): boolean;
