package dev.longfellow.capi;

import com.sun.jna.IntegerType;
import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.Structure;
import com.sun.jna.ptr.ByReference;
import com.sun.jna.ptr.PointerByReference;

/** JNA view of libzkp (longfellow-rs built with feature `multipaz`). */
public interface MdocZk extends Library {
    MdocZk INSTANCE = Native.load("zkp", MdocZk.class);

    /** C size_t. */
    final class SizeT extends IntegerType {
        public SizeT() { this(0); }
        public SizeT(long value) { super(Native.SIZE_T_SIZE, value, true); }
    }

    /** size_t* out-parameter. */
    final class SizeTByReference extends ByReference {
        public SizeTByReference() { super(Native.SIZE_T_SIZE); }
        public long value() {
            return Native.SIZE_T_SIZE == 8 ? getPointer().getLong(0) : getPointer().getInt(0) & 0xffffffffL;
        }
    }

    /** RequestedAttribute. */
    @Structure.FieldOrder({"namespace_id", "id", "cbor_value", "namespace_len", "id_len", "cbor_value_len"})
    class RequestedAttribute extends Structure {
        public byte[] namespace_id = new byte[64];
        public byte[] id = new byte[32];
        public byte[] cbor_value = new byte[64];
        public SizeT namespace_len = new SizeT();
        public SizeT id_len = new SizeT();
        public SizeT cbor_value_len = new SizeT();

        /** Copies what fits; lengths are passed as given (the library refuses over-long ones). */
        public void set(String namespace, String ident, byte[] value) {
            byte[] ns = namespace.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            byte[] idb = ident.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            System.arraycopy(ns, 0, namespace_id, 0, Math.min(ns.length, 64));
            System.arraycopy(idb, 0, id, 0, Math.min(idb.length, 32));
            System.arraycopy(value, 0, cbor_value, 0, Math.min(value.length, 64));
            namespace_len = new SizeT(ns.length);
            id_len = new SizeT(idb.length);
            cbor_value_len = new SizeT(value.length);
        }
    }

    /** ZkSpecStruct. */
    @Structure.FieldOrder({"system", "circuit_hash", "num_attributes", "version", "block_enc_hash", "block_enc_sig"})
    class ZkSpecStruct extends Structure {
        public Pointer system;
        public byte[] circuit_hash = new byte[65];
        public SizeT num_attributes = new SizeT();
        public SizeT version = new SizeT();
        public SizeT block_enc_hash = new SizeT();
        public SizeT block_enc_sig = new SizeT();

        public String hash() {
            int n = 0;
            while (n < 65 && circuit_hash[n] != 0) n++;
            return new String(circuit_hash, 0, n, java.nio.charset.StandardCharsets.US_ASCII);
        }
    }

    int find_zk_spec_by_attributes(SizeT numAttributes, SizeT version, ZkSpecStruct out);

    int run_mdoc_prover(byte[] bcp, SizeT bcsz, byte[] mdoc, SizeT mdocLen, String pkx, String pky,
            byte[] transcript, SizeT trLen, RequestedAttribute[] attrs, SizeT attrsLen, String now,
            PointerByReference prf, SizeTByReference proofLen, String docType, ZkSpecStruct zkSpec);

    int run_mdoc_verifier(byte[] bcp, SizeT bcsz, String pkx, String pky, byte[] transcript,
            SizeT trLen, RequestedAttribute[] attrs, SizeT attrsLen, String now, byte[] zkproof,
            SizeT proofLen, String docType, ZkSpecStruct zkSpec);

    int circuit_id(byte[] id, byte[] bcp, SizeT bcsz, ZkSpecStruct zkSpec);

    int generate_circuit(ZkSpecStruct zkSpec, PointerByReference cb, SizeTByReference clen);

    void free_mdoc_proof(Pointer prf, SizeT len);

    String longfellow_last_error();
}
