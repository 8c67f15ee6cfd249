/**
 * What kind of address a host is (loopback, private, link-local, ...), judged on the hostname of a
 * parsed URL (the WHATWG parser's serialisation), never on a pattern over the text the user typed.
 * The URL policy (urlPolicy.ts) and the policy for URLs the API hands back
 * (nodes/shared/transport/returnedUrls.ts) build on it.
 */

/** After parsing, an IPv4 host is always in dotted-decimal form (127.1 and 0x7f.1 become 127.0.0.1). */
function ipv4Octets(hostname: string): number[] | undefined {
	const parts = hostname.split('.');
	if (parts.length !== 4 || !parts.every((part) => /^\d{1,3}$/.test(part))) return undefined;
	const octets = parts.map(Number);
	return octets.every((octet) => octet <= 255) ? octets : undefined;
}

/**
 * The eight 16-bit pieces of a parsed URL's IPv6 host ("[...]"). The parser serialises every
 * IPv6 address in one form: lower-case hex pieces, the longest run of zeros as "::", no dotted
 * IPv4 tail and no zone.
 */
function ipv6Pieces(hostname: string): number[] | undefined {
	if (!hostname.startsWith('[') || !hostname.endsWith(']')) return undefined;
	const inner = hostname.slice(1, -1);
	const halves = inner.split('::');
	if (halves.length > 2) return undefined;
	const toPieces = (text: string) => (text === '' ? [] : text.split(':'));
	const head = toPieces(halves[0]);
	const tail = halves.length === 2 ? toPieces(halves[1]) : [];
	const missing = 8 - head.length - tail.length;
	if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
	const pieces = [...head, ...new Array<string>(missing).fill('0'), ...tail];
	if (!pieces.every((piece) => /^[\da-f]{1,4}$/.test(piece))) return undefined;
	return pieces.map((piece) => parseInt(piece, 16));
}

/** localhost, 127.0.0.0/8 or [::1], judged on a parsed URL's hostname. */
export function isLoopbackHostname(hostname: string): boolean {
	const host = hostname.toLowerCase().replace(/\.$/, '');
	if (host === 'localhost' || host === '[::1]') return true;
	return ipv4Octets(host)?.[0] === 127;
}

/**
 * Host names that name something inside the user's network by convention, not a public host:
 * reserved (RFC 6761 .localhost, RFC 8375 .home.arpa, ICANN's .internal, mDNS .local) or the
 * private top-level names of RFC 6762 appendix G.
 */
const INTERNAL_NAME_SUFFIXES: ReadonlyArray<[string, string]> = [
	['localhost', 'a loopback name (.localhost)'],
	['internal', 'a name reserved for private networks (.internal, e.g. cloud metadata)'],
	['local', 'a link-local multicast DNS name (.local)'],
	['home.arpa', 'a name reserved for home networks (.home.arpa)'],
	['intranet', 'a private network name (.intranet)'],
	['corp', 'a private network name (.corp)'],
	['home', 'a private network name (.home)'],
	['lan', 'a private network name (.lan)'],
	['private', 'a private network name (.private)'],
];

function internalIpv4(octets: number[]): string | undefined {
	const [a, b, c] = octets;
	if (a === 0) return 'an unspecified or "this network" address (0.0.0.0/8)';
	if (a === 127) return 'a loopback address (127.0.0.0/8)';
	if (a === 10) return 'a private address (10.0.0.0/8)';
	if (a === 172 && b >= 16 && b <= 31) return 'a private address (172.16.0.0/12)';
	if (a === 192 && b === 168) return 'a private address (192.168.0.0/16)';
	if (a === 169 && b === 254) return 'a link-local address (169.254.0.0/16, where cloud metadata services answer)';
	if (a === 100 && b >= 64 && b <= 127) return 'a carrier-grade NAT address (100.64.0.0/10, also used for cloud metadata and VPN meshes)';
	if (a === 192 && b === 0 && c === 0) return 'an IETF protocol address (192.0.0.0/24)';
	if (a === 198 && (b === 18 || b === 19)) return 'a benchmarking address (198.18.0.0/15)';
	if ((a === 192 && b === 0 && c === 2) || (a === 198 && b === 51 && c === 100) || (a === 203 && b === 0 && c === 113)) {
		return 'a documentation address';
	}
	if (a >= 224) return 'a multicast, reserved or broadcast address (224.0.0.0/3)';
	return undefined;
}

/** The IPv4 address in pieces 6 and 7 (or 1 and 2 for 6to4). */
function embeddedIpv4(high: number, low: number): number[] {
	return [high >> 8, high & 0xff, low >> 8, low & 0xff];
}

function internalIpv6(pieces: number[]): string | undefined {
	const zerosUpTo = (count: number) => pieces.slice(0, count).every((piece) => piece === 0);
	if (zerosUpTo(8)) return 'the unspecified address (::)';
	if (zerosUpTo(7) && pieces[7] === 1) return 'a loopback address (::1)';
	if (zerosUpTo(5) && pieces[5] === 0xffff) {
		const inner = internalIpv4(embeddedIpv4(pieces[6], pieces[7]));
		return inner ? `an IPv4-mapped IPv6 form of ${inner}` : undefined;
	}
	if (zerosUpTo(6)) return 'an IPv4-compatible IPv6 address (::/96, deprecated)';
	if (pieces[0] === 0x64 && pieces[1] === 0xff9b) {
		if (pieces[2] === 1) return 'a local-use NAT64 address (64:ff9b:1::/48)';
		const inner = internalIpv4(embeddedIpv4(pieces[6], pieces[7]));
		return inner ? `a NAT64 form of ${inner}` : undefined;
	}
	if (pieces[0] === 0x2002) {
		const inner = internalIpv4(embeddedIpv4(pieces[1], pieces[2]));
		return inner ? `a 6to4 form of ${inner}` : undefined;
	}
	if ((pieces[0] & 0xffc0) === 0xfe80) return 'a link-local address (fe80::/10)';
	if ((pieces[0] & 0xffc0) === 0xfec0) return 'a site-local address (fec0::/10, deprecated)';
	if ((pieces[0] & 0xfe00) === 0xfc00) return 'a unique-local address (fc00::/7)';
	if ((pieces[0] & 0xff00) === 0xff00) return 'a multicast address (ff00::/8)';
	if (pieces[0] === 0x2001 && pieces[1] === 0x0db8) return 'a documentation address (2001:db8::/32)';
	return undefined;
}

/**
 * Why a parsed URL's hostname points inside the user's network (or at the machine itself), or
 * undefined for a public host. Literal addresses are judged by their range (IPv4, IPv6 and the
 * IPv6 forms that carry an IPv4 address); names by the reserved and private suffixes above and
 * single-label names (resolved through the local search domains, e.g. "metadata"). A public
 * name that resolves to an inside address is not seen here: that takes n8n's SSRF protection
 * (N8N_SSRF_PROTECTION_ENABLED, docs/security.md).
 */
export function internalHostReason(hostname: string): string | undefined {
	const host = hostname.toLowerCase().replace(/\.$/, '');
	const octets = ipv4Octets(host);
	if (octets) return internalIpv4(octets);
	if (host.startsWith('[')) {
		const pieces = ipv6Pieces(host);
		return pieces ? internalIpv6(pieces) : 'an IPv6 address that could not be read';
	}
	if (host === '') return 'an empty host';
	if (host === 'localhost') return 'the loopback name localhost';
	for (const [suffix, reason] of INTERNAL_NAME_SUFFIXES) {
		if (host === suffix || host.endsWith(`.${suffix}`)) return reason;
	}
	if (!host.includes('.')) return 'a single-label name, resolved through the local search domains';
	return undefined;
}
