// JVM test of the UniFFI Kotlin bindings over JNA: the ZkSpec table and
// matching, Google's stored v7 proof, a fresh proof, and typed exceptions.

import java.io.File
import kotlin.test.Test
import kotlin.test.assertEquals
import kotlin.test.assertFailsWith
import kotlin.test.assertNotNull
import kotlin.test.assertNull
import kotlin.test.assertTrue
import uniffi.longfellow_uniffi.Attribute
import uniffi.longfellow_uniffi.Circuit
import uniffi.longfellow_uniffi.LongfellowException
import uniffi.longfellow_uniffi.Statement
import uniffi.longfellow_uniffi.matchSpec
import uniffi.longfellow_uniffi.zkSpecs

private const val V7_1 = "8d079211715200ff06c5109639245502bfe94aa869908d31176aae4016182121"
private const val CASE = "birthdate_1971_09_01-mdoc[3].json"

private val vectors = File(System.getProperty("longfellow.vectors"))

private fun hex(s: String): ByteArray = ByteArray(s.length / 2) { i -> s.substring(2 * i, 2 * i + 2).toInt(16).toByte() }

/** A string field of the case's JSON object (flat, no escapes in these values). */
private fun jsonField(obj: String, key: String): String {
    val m = Regex("\"" + Regex.escape(key) + "\"\\s*:\\s*\"([^\"]*)\"").find(obj)
    return assertNotNull(m, "field $key").groupValues[1]
}

/** The CBOR text elementValue right after `text(id) text("elementValue")`. */
private fun textValueAfter(mdoc: ByteArray, id: String): ByteArray {
    val key = byteArrayOf((0x60 or id.length).toByte()) + id.toByteArray() +
        byteArrayOf(0x6c) + "elementValue".toByteArray()
    val at = (0..mdoc.size - key.size).firstOrNull { i -> key.indices.all { mdoc[i + it] == key[it] } }
    assertNotNull(at, "$id followed by elementValue")
    val start = at + key.size
    val head = mdoc[start].toInt() and 0xff
    assertTrue(head in 0x60 until 0x78, "short text value")
    return mdoc.copyOfRange(start, start + 1 + (head and 0x1f))
}

private fun reference(): Pair<Statement, ByteArray> {
    val cases = File(vectors, "google/mdoc/cases.json").readText()
    val start = cases.indexOf("\"name\": \"$CASE\"").takeIf { it >= 0 }
        ?: cases.indexOf("\"name\":\"$CASE\"")
    assertTrue(start >= 0, "reference case")
    val obj = cases.substring(start, cases.indexOf('}', start))
    val mdoc = hex(jsonField(obj, "mdoc_hex"))
    val statement = Statement(
        issuerPkx = jsonField(obj, "pkx"),
        issuerPky = jsonField(obj, "pky"),
        transcript = hex(jsonField(obj, "transcript_hex")),
        attributes = listOf(Attribute("org.iso.18013.5.1", "family_name", textValueAfter(mdoc, "family_name"))),
        now = "2024-10-01T09:00:00Z",
        docType = "org.iso.18013.5.1.mDL",
    )
    return statement to mdoc
}

class LongfellowUniffiTest {
    private val circuit by lazy { Circuit.load(File(vectors, "google/mdoc/circuits/$V7_1.lfa2").readBytes()) }

    @Test
    fun specTableAndMatching() {
        val specs = zkSpecs()
        assertEquals(12, specs.size)
        assertEquals(V7_1, specs[0].circuitHash)
        val m = assertNotNull(matchSpec(specs, 4u))
        assertEquals(7u, m.version)
        assertEquals(4u, m.numAttributes)
        assertNull(matchSpec(specs, 7u))
    }

    @Test
    fun storedProofVerifies() {
        assertEquals(V7_1, circuit.spec().circuitHash)
        val (statement, _) = reference()
        val proof = File(vectors, "google/mdoc/proofs/$V7_1.bin").readBytes()
        circuit.verify(statement, proof)
        assertFailsWith<LongfellowException.ProofRejected> {
            circuit.verify(statement.copy(now = "2024-10-02T09:00:00Z"), proof)
        }
        assertFailsWith<LongfellowException.MalformedProof> {
            circuit.verify(statement, proof.copyOf(proof.size - 1))
        }
        assertFailsWith<LongfellowException.InvalidArgument> {
            circuit.verify(statement.copy(issuerPkx = "0xnothex"), proof)
        }
        assertFailsWith<LongfellowException.Circuit> { Circuit.load(byteArrayOf(1, 2, 3, 4)) }
    }

    @Test
    fun freshProofVerifies() {
        val (statement, mdoc) = reference()
        val t0 = System.nanoTime()
        val proof = circuit.prove(mdoc, statement)
        val t1 = System.nanoTime()
        circuit.verify(statement, proof)
        val t2 = System.nanoTime()
        // The line benches/bindings/run.sh collects.
        println("timing uniffi-kotlin: prove ${(t1 - t0) / 1_000_000} ms, verify ${(t2 - t1) / 1_000_000} ms (v7, 1 attribute)")
        val flipped = proof.copyOf().also { it[it.size / 2] = (it[it.size / 2].toInt() xor 1).toByte() }
        val e = runCatching { circuit.verify(statement, flipped) }.exceptionOrNull()
        assertTrue(e is LongfellowException.ProofRejected || e is LongfellowException.MalformedProof, "$e")
        System.getenv("LONGFELLOW_BINDINGS_OUT")?.let { File(it, "uniffi-kotlin.proof").writeBytes(proof) }

        val absent = statement.copy(attributes = listOf(Attribute("org.iso.18013.5.1", "nickname", byteArrayOf(0x61, 0x78))))
        assertFailsWith<LongfellowException.ProverRefused> { circuit.prove(mdoc, absent) }
    }
}
