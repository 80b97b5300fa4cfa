//! The observed entry points report every layer's steps, in the order the
//! prover takes them, and compute the same wires and proof.

use crate::common;

use common::random_circuit::random_circuit;
use longfellow_field::Gf2_128;
use longfellow_random::MdocLcg;
use longfellow_sumcheck::write_statement;
use longfellow_sumcheck::LayeredCircuit;
use longfellow_sumcheck_prover::{
    evaluate_streaming, evaluate_streaming_observed, prove_streaming, prove_streaming_observed,
    sample_pad, LayerStep,
};
use longfellow_transcript::Transcript;

#[test]
fn steps_come_per_layer_in_order_and_change_nothing() {
    let (c, inputs) = random_circuit::<Gf2_128>(3, 4, &[40, 300, 90], 3, 20);
    let nl = c.num_layers();
    let pad = sample_pad(&c, &mut MdocLcg::new(9));
    let statement = || {
        let mut t = Transcript::new(b"observed");
        write_statement(&mut t, &c, &inputs[..c.num_public_inputs()]);
        t
    };

    let mut steps = Vec::new();
    let eval =
        evaluate_streaming_observed(&c, inputs.clone(), &mut |s| steps.push(s)).expect("evaluates");
    assert_eq!(eval, evaluate_streaming(&c, &inputs).expect("evaluates"));
    let mut t = statement();
    let proof = prove_streaming_observed(&c, eval.clone(), &pad, &mut t, &mut |s| steps.push(s))
        .expect("proves");
    let mut t_plain = statement();
    let plain = prove_streaming(&c, eval, &pad, &mut t_plain).expect("proves");
    assert_eq!(proof.proof, plain.proof);
    assert_eq!(t.digest(), t_plain.digest());

    let mut expected: Vec<LayerStep> = (0..nl).rev().map(LayerStep::Evaluate).collect();
    expected.push(LayerStep::Evaluated);
    for l in 0..nl {
        expected.push(LayerStep::BindOutputs(l));
        expected.push(LayerStep::Rounds(l));
    }
    assert_eq!(steps, expected);
}
