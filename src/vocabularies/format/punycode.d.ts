/** The two RFC 3492 functions this folder uses from the `punycode` package (which ships no types). */
declare module "punycode/punycode.js" {
  interface Punycode {
    /** RFC 3492 §6.2: decodes the Punycode of one label (without "xn--"); throws RangeError on bad input. */
    decode(input: string): string;
    /** RFC 3492 §6.3: encodes one label to Punycode (without "xn--"). */
    encode(input: string): string;
  }
  const punycode: Punycode;
  export default punycode;
}
