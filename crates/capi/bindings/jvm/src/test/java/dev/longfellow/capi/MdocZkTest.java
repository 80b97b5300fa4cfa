package dev.longfellow.capi;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.jna.Pointer;
import com.sun.jna.ptr.PointerByReference;
import dev.longfellow.capi.MdocZk.RequestedAttribute;
import dev.longfellow.capi.MdocZk.SizeT;
import dev.longfellow.capi.MdocZk.SizeTByReference;
import dev.longfellow.capi.MdocZk.ZkSpecStruct;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The C ABI through JNA, as Multipaz's LongfellowZkSystem calls it. */
class MdocZkTest {
    static final MdocZk LIB = MdocZk.INSTANCE;
    static final String NOW = "2024-10-01T09:00:00Z";
    static final String NS = "org.iso.18013.5.1";
    static final Path MDOC = Path.of(System.getProperty("longfellow.vectors", "../../../../../shared/vectors"), "google", "mdoc");

    static String pkx, pky, docType;
    static byte[] transcript, mdoc;

    static String field(String json, int from, String key) {
        Matcher m = Pattern.compile("\"" + key + "\": \"([^\"]*)\"").matcher(json);
        if (!m.find(from)) throw new IllegalStateException("no " + key);
        return m.group(1);
    }

    @BeforeAll
    static void loadCase() throws IOException {
        String json = Files.readString(MDOC.resolve("cases.json"));
        int at = json.indexOf("\"name\": \"birthdate_1971_09_01-mdoc[3].json\"");
        assertTrue(at >= 0, "case in cases.json");
        pkx = field(json, at, "pkx");
        pky = field(json, at, "pky");
        docType = field(json, at, "doc_type");
        transcript = HexFormat.of().parseHex(field(json, at, "transcript_hex"));
        mdoc = HexFormat.of().parseHex(field(json, at, "mdoc_hex"));
    }

    static RequestedAttribute[] attributes(int n) {
        RequestedAttribute[] a = (RequestedAttribute[]) new RequestedAttribute().toArray(n);
        byte[][] values = {
            "\u006aMustermann".getBytes(StandardCharsets.ISO_8859_1),
            concat(new byte[] {(byte) 0xd9, 0x03, (byte) 0xec, 0x6a}, "1971-09-01"),
            concat(new byte[] {(byte) 0xd9, 0x03, (byte) 0xec, 0x6a}, "2024-03-15"),
            {0x18, (byte) 0xaf},
        };
        String[] ids = {"family_name", "birth_date", "issue_date", "height"};
        for (int i = 0; i < n; i++) a[i].set(NS, ids[i], values[i]);
        return a;
    }

    static byte[] concat(byte[] head, String tail) {
        byte[] t = tail.getBytes(StandardCharsets.US_ASCII);
        byte[] out = new byte[head.length + t.length];
        System.arraycopy(head, 0, out, 0, head.length);
        System.arraycopy(t, 0, out, head.length, t.length);
        return out;
    }

    /** Multipaz picks the newest spec for the attribute count. */
    static ZkSpecStruct spec(int attributes, int version) {
        ZkSpecStruct s = new ZkSpecStruct();
        assertEquals(0, LIB.find_zk_spec_by_attributes(new SizeT(attributes), new SizeT(version), s));
        return s;
    }

    static byte[] circuit(ZkSpecStruct s) throws IOException {
        return Files.readAllBytes(MDOC.resolve("circuits").resolve(s.hash()));
    }

    static int verify(byte[] circuit, RequestedAttribute[] attrs, byte[] proof, ZkSpecStruct s) {
        return LIB.run_mdoc_verifier(circuit, new SizeT(circuit.length), pkx, pky, transcript,
                new SizeT(transcript.length), attrs, new SizeT(attrs.length), NOW, proof,
                new SizeT(proof.length), docType, s);
    }

    /** Returns the proof, or null with the code in code[0]. */
    static byte[] prove(byte[] circuit, RequestedAttribute[] attrs, ZkSpecStruct s, int[] code) {
        PointerByReference prf = new PointerByReference();
        SizeTByReference len = new SizeTByReference();
        code[0] = LIB.run_mdoc_prover(circuit, new SizeT(circuit.length), mdoc, new SizeT(mdoc.length),
                pkx, pky, transcript, new SizeT(transcript.length), attrs, new SizeT(attrs.length), NOW,
                prf, len, docType, s);
        if (code[0] != 0) return null;
        Pointer p = prf.getValue();
        byte[] out = p.getByteArray(0, (int) len.value());
        LIB.free_mdoc_proof(p, new SizeT(len.value()));
        return out;
    }

    @Test
    void storedGoogleProofsVerify() throws IOException {
        for (int version : new int[] {7, 6}) {
            for (int n = 1; n <= 4; n++) {
                ZkSpecStruct s = spec(n, version);
                assertEquals(version, s.version.intValue());
                byte[] proof = Files.readAllBytes(MDOC.resolve("proofs").resolve(s.hash() + ".bin"));
                assertEquals(0, verify(circuit(s), attributes(n), proof, s),
                        () -> "v" + version + "/" + " " + LIB.longfellow_last_error());
            }
        }
    }

    @Test
    void newestSpecIsVersionSevenAndUnknownCountsAreRefused() {
        assertEquals(7, spec(1, 0).version.intValue());
        assertEquals(-1, LIB.find_zk_spec_by_attributes(new SizeT(5), new SizeT(0), new ZkSpecStruct()));
    }

    @Test
    void freshProofVerifiesAndErrorsHaveCodes() throws IOException {
        ZkSpecStruct s = spec(1, 0);
        byte[] c = circuit(s);
        int[] code = new int[1];
        long t0 = System.nanoTime();
        byte[] proof = prove(c, attributes(1), s, code);
        long t1 = System.nanoTime();
        assertEquals(0, code[0], () -> LIB.longfellow_last_error());
        assertEquals(0, verify(c, attributes(1), proof, s));
        long t2 = System.nanoTime();
        // The line benches/bindings/run.sh collects.
        System.out.printf("timing capi-jvm: prove %d ms, verify %d ms (v7, 1 attribute)%n",
                (t1 - t0) / 1_000_000, (t2 - t1) / 1_000_000);

        byte[] bad = proof.clone();
        bad[20] ^= 1;
        assertEquals(5, verify(c, attributes(1), bad, s)); // MDOC_VERIFIER_GENERAL_FAILURE
        RequestedAttribute[] lacking = (RequestedAttribute[]) new RequestedAttribute().toArray(1);
        lacking[0].set(NS, "age_over_99", new byte[] {(byte) 0xf5});
        assertEquals(null, prove(c, lacking, s, code));
        assertEquals(31, code[0]); // MDOC_PROVER_ATTRIBUTE_NOT_FOUND
        assertTrue(LIB.longfellow_last_error().contains("age_over_99"));
        byte[] truncated = java.util.Arrays.copyOf(c, c.length / 2);
        assertEquals(null, prove(truncated, attributes(1), s, code));
        assertEquals(3, code[0]); // MDOC_PROVER_CIRCUIT_PARSING_FAILURE
    }

    @Test
    void circuitIdNeedsNoSpec() throws IOException {
        ZkSpecStruct s = spec(2, 6);
        byte[] id = new byte[32];
        assertEquals(1, LIB.circuit_id(id, circuit(s), new SizeT(circuit(s).length), null));
        assertArrayEquals(HexFormat.of().parseHex(s.hash()), id);
    }

    @Test
    void generateCircuitIsNotSupported() {
        PointerByReference cb = new PointerByReference();
        SizeTByReference len = new SizeTByReference();
        int code = LIB.generate_circuit(spec(1, 0), cb, len);
        assertEquals(3, code); // CIRCUIT_GENERATION_GENERAL_FAILURE
        assertNotEquals("", LIB.longfellow_last_error());
    }
}
