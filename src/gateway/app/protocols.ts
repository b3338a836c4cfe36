/**
 * Every protocol a buyer can punch out with, by the name buyers are configured with (`protocol` in a
 * buyer's config). The one list a new protocol joins; the type makes a configured protocol without an
 * entry fail to compile.
 */

import type { PunchoutProtocols } from '../context.ts';
import { cxmlProtocol } from '../cxml/index.ts';
import { ociProtocol } from '../oci/index.ts';

export const PUNCHOUT_PROTOCOLS: PunchoutProtocols = { cxml: cxmlProtocol, oci: ociProtocol };
